import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { rawField } from "../../support/raw_json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  MAIN,
  ROOT,
  runNavi,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";

const PLUGIN = (name: string) =>
  `export default (navi) => navi.registerTool({ name: "${name}", description: "- ${name}.", parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true }) });\n`;

Deno.test("a resumed session sends the old tools in the old order, the new tool appended, and the old conversation", async () => {
  await using home = await tempDir();
  const server = startLlmServer((i) => ({ text: `answer ${i}` }));
  try {
    await writeConfig(home.path, { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" });
    await Deno.mkdir(join(home.path, "plugins"));
    await Deno.writeTextFile(join(home.path, "plugins", "gone.js"), PLUGIN("gone_tool"));
    const first = await runNavi(["-p", "first question", "--output-format", "json"], { home: home.path });
    assertEquals(first.code, 0, first.stderr);
    const id = JSON.parse(first.stdout).session_id;

    await Deno.copyFile(
      join(ROOT, "plugins/examples/word_count.ts"),
      join(home.path, "plugins", "word_count.ts"),
    );
    await Deno.remove(join(home.path, "plugins", "gone.js"));
    const second = await runNavi(["--resume", id, "-p", "second question"], { home: home.path });
    assertEquals(second.code, 0, second.stderr);
    assertEquals(second.stdout, "answer 1\n");

    const before = JSON.parse(rawField(server.requests[0].raw, "tools")).map((
      t: { function: { name: string } },
    ) => t.function.name);
    const after = JSON.parse(rawField(server.requests[1].raw, "tools")).map((
      t: { function: { name: string } },
    ) => t.function.name);
    assertEquals(after, [...before.filter((n: string) => n !== "gone_tool"), "word_count"]);
    const msgs = server.requests[1].body.messages as { role: string; content: string }[];
    assertEquals(msgs.map((m) => m.role), ["system", "user", "assistant", "user", "user"]);
    assertEquals(msgs[1].content, "first question");
    assertEquals(msgs[2].content, "answer 0");
    assertEquals(msgs[3].content, "second question");
    assertEquals(
      msgs[4].content,
      "<system-reminder>Tools added: word_count. Tools removed: gone_tool.</system-reminder>",
    );
    assertEquals(
      rawField(server.requests[1].raw, "messages").slice(
        0,
        rawField(server.requests[0].raw, "messages").length - 1,
      ),
      rawField(server.requests[0].raw, "messages").slice(0, -1),
      "the old conversation is sent byte for byte",
    );

    const cont = await runNavi(["--continue", "-p", "third"], { home: home.path });
    assertEquals(cont.code, 0, cont.stderr);
    const third = server.requests[2].body.messages as { content: string }[];
    assertEquals(third.length, 7, "continued the same session");
    assertEquals(rawField(server.requests[2].raw, "tools"), rawField(server.requests[1].raw, "tools"));

    const list = await runNavi(["sessions", "--json"], { home: home.path });
    const sessions = JSON.parse(list.stdout);
    assertEquals(sessions.length, 1);
    assertEquals(sessions[0].first_prompt, "first question");
    assertEquals(sessions[0].messages, 7);
  } finally {
    await server.close();
  }
});

Deno.test("resuming a missing session is a clear error; a corrupt last line warns once and goes on", async () => {
  await using home = await tempDir();
  const missing = await runNavi(["--resume", "20990101-000000-aaaaaa", "-p", "x"], { home: home.path });
  assertEquals(missing.code, 2);
  assertMatch(missing.stderr, /^navi: no session with id 20990101-000000-aaaaaa/);

  const server = startLlmServer((i) => ({ text: `answer ${i}` }));
  try {
    await writeConfig(home.path, { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" });
    const first = await runNavi(["-p", "q1", "--output-format", "json"], { home: home.path });
    const id = JSON.parse(first.stdout).session_id;
    await Deno.writeTextFile(join(home.path, "sessions", `${id}.jsonl`), '{"type":"mess', { append: true });
    const r = await runNavi(["--resume", id, "-p", "q2"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stderr.match(/corrupt/g)?.length, 1);
    assertEquals((server.requests[1].body.messages as unknown[]).length, 4);
  } finally {
    await server.close();
  }
});

Deno.test("plan mode and feature gates shape the offered tools", async () => {
  await using home = await tempDir();
  const plan = await runNavi(["tools", "--json", "--approval", "plan"], { home: home.path });
  const planNames = JSON.parse(plan.stdout).map((t: { function: { name: string } }) => t.function.name);
  assertEquals(planNames, [
    "read_file",
    "list_dir",
    "glob",
    "grep",
    "bash_output",
    "kill_shell",
    "todo_write",
    "skill",
    "task",
    "call_tool",
    "find_tools",
  ]);
  await writeConfig(home.path, { features: { "g*": false } });
  const gated = await runNavi(["tools", "--json"], { home: home.path });
  const gatedNames = JSON.parse(gated.stdout).map((t: { function: { name: string } }) => t.function.name);
  assert(!gatedNames.includes("glob") && !gatedNames.includes("grep") && gatedNames.includes("bash"));
});

Deno.test("a session live in one process is refused to a second --resume (exit 2, one line); once that process is gone, it resumes", async () => {
  await using home = await tempDir();
  const server = startLlmServer((i) => (i === 1 ? { hang: true } : { text: `answer ${i}` }));
  let live: Deno.ChildProcess | undefined;
  try {
    await writeConfig(home.path, { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" });
    const first = await runNavi(["-p", "q1", "--output-format", "json"], { home: home.path });
    const id = JSON.parse(first.stdout).session_id;
    const file = join(home.path, "sessions", `${id}.jsonl`);
    assert(!(await Deno.stat(`${file}.lock`).catch(() => null)), "a finished run leaves no lock");
    live = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "--resume", id, "-p", "q2"],
      cwd: home.path,
      env: { NAVI_HOME: home.path, NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await until(() => server.requests.length === 2, 30_000, "the first process waiting for the model");
    const before = await Deno.readTextFile(file);
    const second = await runNavi(["--resume", id, "-p", "q3"], { home: home.path });
    assertEquals(second.code, 2);
    assertEquals(second.stdout, "");
    assertEquals(
      second.stderr,
      `navi: session ${file} is in use by another navi process (pid ${live.pid}); ` +
        `close that one first, or remove ${file}.lock if it is gone\n`,
    );
    assertEquals(await Deno.readTextFile(file), before, "the refused process wrote nothing");
    assertEquals(server.requests.length, 2, "the refused process sent nothing");

    live.kill("SIGKILL");
    await live.status;
    live = undefined;
    const third = await runNavi(["--resume", id, "-p", "q4"], { home: home.path });
    assertEquals(third.code, 0, third.stderr);
    assertEquals(third.stdout, "answer 2\n");
  } finally {
    if (live) {
      live.kill("SIGKILL");
      await live.status;
    }
    await server.close();
  }
});
