// Hooks as a Claude Code user brings them, black-box: navi -p in a trusted folder whose .claude/settings.json
// is written as Claude Code's documentation shows it, against the scripted model server.
import { join } from "node:path";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { mcpJson, userHomeEnv } from "../../support/project_fixture.ts";
import { markedSleep, pidsWith } from "../../support/navi_process.ts";

type Msg = { role: string; content?: unknown; tool_call_id?: string };
type Body = { messages: Msg[] };

/** A model that makes `calls` one after the other (one per request), then answers "done". */
function calling(calls: { name: string; arguments: Record<string, unknown> }[]) {
  return (_i: number, body: Record<string, unknown>): Step => {
    const done = (body.messages as Msg[]).filter((m) => m.role === "tool").length;
    const call = calls[done];
    return call
      ? { toolCalls: [{ name: call.name, arguments: JSON.stringify(call.arguments) }] }
      : { text: "done" };
  };
}

/** A folder with `.claude/settings.json` (and `files`), trusted; `run` runs navi -p there. */
async function project(
  settings: Record<string, unknown>,
  opts: { model: ReturnType<typeof calling>; files?: Record<string, string>; mcp?: boolean },
) {
  const home = await tempDir();
  const userHome = await tempDir();
  const repo = await tempDir();
  await Deno.mkdir(join(repo.path, ".git"));
  await Deno.mkdir(join(repo.path, ".claude", "hooks"), { recursive: true });
  await Deno.writeTextFile(
    join(repo.path, ".claude", "settings.json"),
    JSON.stringify({ hooks: settings }, null, 2),
  );
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    await Deno.writeTextFile(join(repo.path, name), text, { mode: name.endsWith(".sh") ? 0o755 : 0o644 });
  }
  if (opts.mcp) await Deno.writeTextFile(join(repo.path, ".mcp.json"), mcpJson());
  const server = startLlmServer(opts.model);
  await writeConfig(home.path, llmConfig(server.url));
  const run = (args: string[]) =>
    runNavi(args, { home: home.path, cwd: repo.path, env: userHomeEnv(userHome.path), timeoutMs: 90_000 });
  const trust = await run(["trust", "--yes"]);
  assertEquals(trust.code, 0, trust.stderr);
  assertMatch(trust.stdout, /hook/);
  return {
    home: home.path,
    userHome: userHome.path,
    repo: repo.path,
    run,
    body: (i: number) => server.requests[i].body as unknown as Body,
    requests: () => server.requests.length,
    async [Symbol.asyncDispose]() {
      await server.close();
      for (const d of [home, userHome, repo]) await d[Symbol.asyncDispose]();
    },
  };
}

const toolMessage = (body: Body) => String(body.messages.findLast((m) => m.role === "tool")?.content ?? "");
const hook = (command: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command,
  ...extra,
});

const BLOCK_RM = [
  "#!/bin/bash",
  "# .claude/hooks/block-rm.sh: PreToolUse hook on Bash",
  "cmd=$(jq -r '.tool_input.command')",
  'if [[ "$cmd" == rm* ]]; then',
  '  echo "Blocked: rm commands are not allowed" >&2',
  "  exit 2",
  "fi",
  "exit 0",
].join("\n");

Deno.test("a PreToolUse hook on Bash that exits 2 for rm: the file survives, the model gets the hook's stderr", async () => {
  await using t = await project(
    { PreToolUse: [{ matcher: "Bash", hooks: [hook('"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh')] }] },
    {
      model: calling([{ name: "bash", arguments: { command: "rm keep.txt" } }]),
      files: { "keep.txt": "precious\n", ".claude/hooks/block-rm.sh": BLOCK_RM },
    },
  );
  const r = await t.run(["-p", "clean up", "--approval", "auto"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(join(t.repo, "keep.txt")), "precious\n");
  const result = JSON.parse(toolMessage(t.body(1)));
  assertEquals(result, { ok: false, error: "Blocked: rm commands are not allowed" });
  const audit = (await sessionRecords(t.home)).filter((x) => x.type === "hook");
  assertEquals(audit.map((x) => [x.event, x.exit, x.result]), [["PreToolUse", 2, "block"]]);
  assertMatch(String(audit[0].source), /\.claude\/settings\.json:\d+$/);
});

Deno.test("a PostToolUse hook on Edit|Write runs a formatter: the file is formatted after the write", async () => {
  const strip = `f=$(jq -r '.tool_input.file_path'); sed -i 's/[[:space:]]*$//' "$f"`;
  await using t = await project(
    { PostToolUse: [{ matcher: "Edit|Write", hooks: [hook(strip)] }] },
    { model: calling([{ name: "write_file", arguments: { path: "a.txt", content: "one   \ntwo\t\n" } }]) },
  );
  const r = await t.run(["-p", "write it", "--approval", "auto"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(join(t.repo, "a.txt")), "one\ntwo\n");
});

Deno.test("a UserPromptSubmit hook's stdout reaches the request", async () => {
  await using t = await project(
    { UserPromptSubmit: [{ hooks: [hook("echo 'Ticket NAVI-4711: the login page times out'")] }] },
    { model: calling([]) },
  );
  const r = await t.run(["-p", "fix the ticket"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "done\n");
  const sent = JSON.stringify(t.body(0).messages);
  assertMatch(sent, /fix the ticket.*Ticket NAVI-4711: the login page times out/);
});

Deno.test("a PreToolUse hook answering permissionDecision deny on an MCP tool: the call never reaches the server", async () => {
  const deny = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "the docs server is read-only today",
    },
  });
  await using t = await project(
    { PreToolUse: [{ matcher: "mcp__docs__.*", hooks: [hook(`echo '${deny}'`)] }] },
    { model: calling([{ name: "mcp__docs__echo", arguments: { message: "hi" } }]), mcp: true },
  );
  const r = await t.run(["-p", "echo", "--approval", "auto"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(JSON.parse(toolMessage(t.body(1))), {
    ok: false,
    error: "the docs server is read-only today",
  });
});

Deno.test("updatedInput from a PreToolUse hook rewrites the command that runs", async () => {
  const rewrite = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      updatedInput: { command: "echo rewritten > out.txt" },
    },
  });
  await using t = await project(
    { PreToolUse: [{ matcher: "Bash", hooks: [hook(`echo '${rewrite}'`)] }] },
    { model: calling([{ name: "bash", arguments: { command: "echo original > out.txt" } }]) },
  );
  const r = await t.run(["-p", "write out", "--approval", "auto"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(join(t.repo, "out.txt")), "rewritten\n");
});

Deno.test("a hook that sleeps past its timeout is ended with what it started: navi goes on and says so in one line", async () => {
  const sleep = markedSleep();
  await using t = await project(
    { PreToolUse: [{ matcher: "Bash", hooks: [hook(`${sleep.command}; echo late`, { timeout: 1 })] }] },
    { model: calling([{ name: "bash", arguments: { command: "echo ran > ran.txt" } }]) },
  );
  const started = Date.now();
  const r = await t.run(["-p", "run it", "--approval", "auto"]);
  assertEquals(r.code, 0, r.stderr);
  assert(Date.now() - started < 25_000, "navi did not wait for the sleeping hook");
  assertEquals(await Deno.readTextFile(join(t.repo, "ran.txt")), "ran\n");
  assertMatch(r.stderr, new RegExp(`hook ${sleep.command}; echo late timed out`));
  assertEquals(pidsWith(sleep.marker), [], "the hook's sleep was ended with it");
});

Deno.test("a project hook that writes to $HOME fails inside the sandbox; the workspace stays writable", async () => {
  const attempt =
    'touch "$HOME/pwned-by-hook" 2>/dev/null && echo wrote > hook.txt || echo refused > hook.txt';
  await using t = await project(
    { UserPromptSubmit: [{ hooks: [hook(attempt)] }] },
    { model: calling([]) },
  );
  const r = await t.run(["-p", "hello"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(join(t.repo, "hook.txt")), "refused\n");
  assertEquals(await Deno.stat(join(t.userHome, "pwned-by-hook")).then(() => true, () => false), false);
});

async function sessionRecords(home: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const e of Deno.readDir(join(home, "sessions"))) {
    if (!e.name.endsWith(".jsonl")) continue;
    const text = await Deno.readTextFile(join(home, "sessions", e.name));
    out.push(...text.split("\n").filter(Boolean).map((l) => JSON.parse(l)));
  }
  return out;
}

Deno.test("a project's hooks wait for trust, and a changed hook asks again: until then it does not run", async () => {
  const settings = (word: string) => ({ UserPromptSubmit: [{ hooks: [hook(`echo ${word} > hook.txt`)] }] });
  await using t = await project(settings("first"), { model: calling([]) });
  const trusted = await t.run(["-p", "hi"]);
  assertEquals(trusted.code, 0, trusted.stderr);
  assertEquals(await Deno.readTextFile(join(t.repo, "hook.txt")), "first\n");
  await Deno.writeTextFile(
    join(t.repo, ".claude", "settings.json"),
    JSON.stringify({ hooks: settings("second") }),
  );
  const changed = await t.run(["-p", "hi"]);
  assertEquals(changed.code, 0, changed.stderr);
  assertMatch(changed.stderr, /is not trusted; skipped hook UserPromptSubmit/);
  assertEquals(await Deno.readTextFile(join(t.repo, "hook.txt")), "first\n", "the changed hook did not run");
});
