import bash from "../../tools/bash.ts";
import type { CommandOutcome, CommandRun, CommandRunner, ToolContext } from "../../core/mod.ts";
import { assert, assertEquals, assertMatch, tempDir, toolContext } from "../helpers.ts";

Deno.test("bash runs in the workspace and returns exit code and output", async () => {
  await using ws = await tempDir();
  const r = await bash.run({ command: "pwd; echo err >&2" }, toolContext(ws.path));
  assert(r.ok);
  assertEquals(r.exit_code, 0);
  assertMatch(r.output as string, new RegExp(`^${ws.path}\\n`));
  assertMatch(r.output as string, /err/);
});

Deno.test("bash reports a non-zero exit with its output", async () => {
  await using ws = await tempDir();
  const r = await bash.run({ command: "echo partial; exit 3" }, toolContext(ws.path));
  assert(!r.ok);
  assertEquals(r.error, "Command exited with code 3");
  assertEquals(r.output, "partial\n");
});

Deno.test("bash kills the command and its children at the timeout", async () => {
  await using ws = await tempDir();
  const marker = `20.${Math.floor(Math.random() * 1e6)}`;
  const r = await bash.run(
    { command: `sleep ${marker} & sleep ${marker}; echo never`, timeout_ms: 200 },
    toolContext(ws.path),
  );
  assert(!r.ok);
  assertMatch(r.error, /timed out after 200 ms/);
  assert(!String(r.output).includes("never"));
  const ps = await new Deno.Command("pgrep", { args: ["-f", `sleep ${marker}`], stdout: "piped" }).output();
  assertEquals(new TextDecoder().decode(ps.stdout).trim(), "", "no child of the command survives");
});

Deno.test("bash is killed on abort and streams output live", async () => {
  await using ws = await tempDir();
  const controller = new AbortController();
  const chunks: string[] = [];
  const ctx = {
    ...toolContext(ws.path, { signal: controller.signal }),
    onOutput: (c: string) => chunks.push(c),
  };
  const pending = bash.run({ command: "echo started; sleep 20" }, ctx);
  while (!chunks.join("").includes("started")) await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  const r = await pending;
  assert(!r.ok);
  assertMatch(r.error, /Abort/);
});

Deno.test("bash children get the environment the context gives them", async () => {
  await using ws = await tempDir();
  const ctx = { ...toolContext(ws.path), childEnv: () => ({ PATH: Deno.env.get("PATH")!, ONLY_THIS: "1" }) };
  const r = await bash.run({ command: "env | grep -c . ; echo $ONLY_THIS" }, ctx);
  assert(r.ok);
  assertMatch(r.output as string, /1\n$/);
});

Deno.test("huge bash output is truncated for the model", async () => {
  await using ws = await tempDir();
  const r = await bash.run({ command: "yes line | head -c 100000" }, toolContext(ws.path));
  assert(r.ok && r.truncated === true);
  assertMatch(r.output as string, /truncated \d+ characters\]$/);
});

/** A command runner that runs each command as a plain child process and keeps what it was given. */
function recordingRunner(runs: CommandRun[], outcome?: Partial<CommandOutcome>): CommandRunner {
  return {
    async run(run) {
      runs.push(run);
      const [program, ...args] = run.argv;
      const out = await new Deno.Command(program, { args, cwd: run.cwd, env: run.env, clearEnv: true })
        .output();
      const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      run.onOutput?.(output);
      return { code: out.code, output, dropped: 0, ...outcome };
    },
  };
}

Deno.test("bash runs through the context's command runner: sandboxed argv, cwd, env and the call id", async () => {
  await using ws = await tempDir();
  const runs: CommandRun[] = [];
  const seen: string[] = [];
  const ctx: ToolContext = {
    ...toolContext(ws.path),
    callId: "call_7",
    childEnv: () => ({ PATH: Deno.env.get("PATH") ?? "", ONLY: "this" }),
    commandRunner: recordingRunner(runs),
    onOutput: (c) => seen.push(c),
    sandbox: { wrap: (argv) => Promise.resolve({ ok: true, argv: ["env", ...argv] }) },
  };
  const r = await bash.run({ command: "echo $ONLY; exit 4" }, ctx);
  assertEquals(r, { ok: false, error: "Command exited with code 4", exit_code: 4, output: "this\n" });
  assertEquals(runs[0].argv, ["env", "bash", "-c", "echo $ONLY; exit 4"]);
  assertEquals([runs[0].cwd, runs[0].callId, runs[0].env.ONLY], [ws.path, "call_7", "this"]);
  assertEquals(seen, ["this\n"]);
  const timedOut = await bash.run(
    { command: "true", timeout_ms: 300 },
    { ...ctx, commandRunner: recordingRunner(runs, { stopped: "timeout", code: null }) },
  );
  assertEquals(timedOut.ok, false);
  assertMatch(String(timedOut.error), /timed out after 300 ms/);
});
