// The session events as a user's own hooks (config.json, navi's vocabulary) see them: the input on stdin,
// SessionStart and Stop, the audit, and `/hooks` listing each hook with its last result.
import { join } from "node:path";
import {
  assert,
  assertEquals,
  assertMatch,
  keyedLlmConfig,
  llmConfig,
  runNavi,
  tempDir,
  textUnder,
  writeConfig,
} from "../../helpers.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { userHomeEnv } from "../../support/project_fixture.ts";

type Msg = { role: string; content?: unknown };

async function world(hooks: Record<string, unknown>, script: Step[] | ((i: number) => Step)) {
  const home = await tempDir();
  const userHome = await tempDir();
  const ws = await tempDir();
  const server = startLlmServer(typeof script === "function" ? (i) => script(i) : script);
  await writeConfig(home.path, { ...llmConfig(server.url), hooks });
  return {
    home: home.path,
    ws: ws.path,
    server,
    run: (args: string[], stdin?: string) =>
      runNavi(args, { home: home.path, cwd: ws.path, env: userHomeEnv(userHome.path), stdin }),
    async [Symbol.asyncDispose]() {
      await server.close();
      for (const d of [home, userHome, ws]) await d[Symbol.asyncDispose]();
    },
  };
}

const command = (
  c: string,
  extra: Record<string, unknown> = {},
) => [{ hooks: [{ type: "command", command: c, ...extra }] }];

Deno.test("SessionStart: the input carries the common fields and source startup; plain stdout joins the context", async () => {
  await using t = await world({
    SessionStart: command('cat > "$NAVI_PROJECT_DIR/start.json"; echo "branch: feature/login"'),
  }, [{ text: "ok" }]);
  const r = await t.run(["-p", "hi", "--output-format", "json"]);
  assertEquals(r.code, 0, r.stderr);
  const id = JSON.parse(r.stdout).session_id;
  const input = JSON.parse(await Deno.readTextFile(join(t.ws, "start.json")));
  assertEquals(input.session_id, id);
  assertEquals(input.hook_event_name, "SessionStart");
  assertEquals(input.source, "startup");
  assertEquals(input.cwd, await Deno.realPath(t.ws).catch(() => t.ws));
  assertEquals(input.permission_mode, "default");
  assertMatch(input.transcript_path, new RegExp(`${id}\\.jsonl$`));
  const sent = JSON.stringify(t.server.requests[0].body.messages as Msg[]);
  assertMatch(sent, /branch: feature\/login/);
});

Deno.test("Stop: exit 2 makes the loop continue with the hook's reason; stop_hook_active then lets it stop", async () => {
  const stop =
    `if [ "$(jq -r .stop_hook_active)" = "false" ]; then echo "run the tests first" >&2; exit 2; fi`;
  await using t = await world({ Stop: command(stop) }, [{ text: "first answer" }, { text: "tests pass" }]);
  const r = await t.run(["-p", "fix it"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout.trim().split("\n").at(-1), "tests pass");
  assertEquals(t.server.requests.length, 2);
  const second = JSON.stringify(t.server.requests[1].body.messages);
  assertMatch(second, /A Stop hook asks you to continue: run the tests first/);
});

Deno.test("UserPromptSubmit exit 2 blocks the prompt: nothing is sent, the user sees the reason", async () => {
  await using t = await world({
    UserPromptSubmit: command('grep -q password && { echo "no secrets in prompts" >&2; exit 2; }; exit 0'),
  }, [{ text: "never" }]);
  const r = await t.run(["-p", "my password is hunter2"]);
  assertEquals(t.server.requests.length, 0);
  assertMatch(r.stderr, /UserPromptSubmit hook blocked the prompt: no secrets in prompts/);
});

Deno.test("/hooks lists each loaded hook with its source and last result; the session's audit has the runs", async () => {
  await using t = await world({
    UserPromptSubmit: command("echo context-from-hook"),
    PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: "exit 3" }] }],
  }, [{ text: "hello back" }]);
  const r = await t.run([], "hello\n/hooks\n/exit\n");
  assertEquals(r.code, 0, r.stderr);
  const config = join(t.home, "config.json");
  const rows = r.stdout.split("\n").filter((l) =>
    l.startsWith("UserPromptSubmit") || l.startsWith("PreToolUse")
  );
  assertEquals(rows.length, 2, r.stdout);
  assertMatch(
    rows[0],
    new RegExp(`^UserPromptSubmit +\\* +echo context-from-hook +${config}:\\d+ +ok \\(exit 0, \\d+ ms\\)$`),
  );
  assertMatch(rows[1], new RegExp(`^PreToolUse +bash +exit 3 +${config}:\\d+ +not run yet$`));
  const sessions = join(t.home, "sessions");
  let records: Record<string, unknown>[] = [];
  for await (const e of Deno.readDir(sessions)) {
    if (e.name.endsWith(".jsonl")) {
      records = (await Deno.readTextFile(join(sessions, e.name))).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      );
    }
  }
  const runs = records.filter((x) => x.type === "hook");
  assertEquals(runs.map((x) => [x.event, x.exit, x.result, x.command]), [[
    "UserPromptSubmit",
    0,
    "ok",
    "echo context-from-hook",
  ]]);
  assert(typeof runs[0].ms === "number");
});

Deno.test("/clear: SessionEnd sees reason clear, the new session's SessionStart sees source clear", async () => {
  await using t = await world({
    SessionStart: command('jq -r .source >> "$NAVI_PROJECT_DIR/events.txt"'),
    SessionEnd: command('echo "end $(jq -r .reason)" >> "$NAVI_PROJECT_DIR/events.txt"'),
  }, [{ text: "one" }, { text: "two" }]);
  const r = await t.run([], "hello\n/clear\nagain\n/exit\n");
  assertEquals(r.code, 0, r.stderr);
  const events = (await Deno.readTextFile(join(t.ws, "events.txt"))).trim().split("\n");
  assertEquals(events[0], "startup");
  // The cleared session ends while the new one starts and runs: those lines come in any order.
  assertEquals(events.slice(1).sort(), ["clear", "end clear", "end other"]);
});

Deno.test("a hook's environment has NAVI_PROJECT_DIR but not navi's secrets; a secret it prints is redacted", async () => {
  const secret = "sk-test-hook-7f3a9c1d2e4b";
  await using home = await tempDir();
  await using userHome = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer([{ text: "ok" }]);
  try {
    await writeConfig(home.path, {
      ...keyedLlmConfig(server.url),
      hooks: {
        UserPromptSubmit: command(`env > "$NAVI_PROJECT_DIR/env.txt"; echo "leaked: $LEAK ${secret}"`),
      },
    });
    const env = { ...userHomeEnv(userHome.path), TEST_LLM_KEY: secret, LEAK: secret };
    const r = await runNavi(["-p", "hi"], { home: home.path, cwd: ws.path, env });
    assertEquals(r.code, 0, r.stderr);
    const seen = await Deno.readTextFile(join(ws.path, "env.txt"));
    assertEquals(seen.includes("TEST_LLM_KEY"), false, "the key's variable is kept from hooks");
    assertEquals(seen.includes(secret), false, "so is any variable holding its value");
    assertMatch(seen, new RegExp(`^NAVI_PROJECT_DIR=${ws.path}$`, "m"));
    const sent = JSON.stringify(server.requests[0].body.messages);
    assertMatch(sent, /leaked: +\S+/);
    assertEquals(sent.includes(secret), false, "what the hook printed was redacted");
    const records = textUnder(join(home.path, "sessions"));
    assertMatch(records, /"type":"hook"/);
    assertEquals(records.includes(secret), false, "nor does the session's audit keep it");
  } finally {
    await server.close();
  }
});

Deno.test("Notification: idle_prompt when a turn ends; navi waits for it before the session ends", async () => {
  await using t = await world({
    Notification: command(
      `sleep 0.3; jq -r '"\\(.notification_type): \\(.message)"' >> "$NAVI_PROJECT_DIR/n.txt"`,
    ),
    SessionEnd: command('echo "end" >> "$NAVI_PROJECT_DIR/n.txt"'),
  }, [{ text: "done" }]);
  const r = await t.run(["-p", "hi"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(
    await Deno.readTextFile(join(t.ws, "n.txt")),
    "idle_prompt: navi is waiting for your input\nend\n",
  );
});
