// /context, /context reload and cut tool results whose whole text the model can read from the session folder.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";

const KEY = "sk-whole-output-SECRET-1234567";

Deno.test("a cut bash result: its whole output is kept in the session folder and read_file reads it there unasked", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  let saved = "";
  const server = startLlmServer((i, body) => {
    const last = (body.messages as { role: string; content: string }[]).at(-1)!;
    if (i === 0) {
      return {
        toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: `echo ${KEY}; seq 1 20000` }) }],
      };
    }
    if (i === 1) {
      saved = JSON.parse(last.content).full_output;
      return {
        toolCalls: [{
          name: "read_file",
          arguments: JSON.stringify({ path: saved, offset: 19990, limit: 3 }),
        }],
      };
    }
    return { text: `the end: ${JSON.parse(last.content).content}` };
  });
  try {
    await writeConfig(home.path, {
      providers: { local: { base_url: server.url, api_key: KEY } },
      model: "m",
      approval: { mode: "ask", allow: ["bash"] },
    });
    const r = await runNavi(["-p", "count"], { home: home.path, cwd: ws.path });
    assertEquals(r.code, 0, r.stderr);
    const cut = JSON.parse((server.requests[1].body.messages as { content: string }[]).at(-1)!.content);
    assertEquals(cut.truncated, true);
    assertMatch(
      cut.note,
      /The result was cut\. The whole output \(\d+ characters, 20002 lines\) is in .*: read the part/,
    );
    assert(saved.startsWith(join(home.path, "sessions")), saved);
    assertEquals((await Deno.stat(saved)).mode! & 0o777, 0o600);
    const text = await Deno.readTextFile(saved);
    assert(!text.includes(KEY) && text.startsWith("[redacted]\n1\n2\n"), text.slice(0, 60));
    assertMatch(r.stdout, /the end: +19990\t19989\n +19991\t19990\n +19992\t19991/);
  } finally {
    await server.close();
  }
});

Deno.test("/context shows the window and what fills it; /context reload puts edited AGENTS.md in place", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "AGENTS.md"), "Old rule.");
  const server = startLlmServer((i) => {
    if (i === 1) Deno.writeTextFileSync(join(ws.path, "AGENTS.md"), "New rule.");
    return { text: `answer ${i}` };
  });
  try {
    await writeConfig(home.path, llmConfig(server.url, { models: { m: { context_window: 20_000 } } }));
    const r = await runNavi([], {
      home: home.path,
      cwd: ws.path,
      stdin: "one\n/context\ntwo\n/context reload\nthree\n/exit\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(
      r.stdout,
      /window 20,000 tokens \(config\) · 4,096 kept for the answer · requests may carry 15,904 tokens/,
    );
    assertMatch(r.stdout, /system prompt +\d+\nproject instructions +\d+\ntools: built-in \(12\) +[\d,]+\n/);
    assertMatch(r.stdout, /free [\d,]+ tokens \(\d+%\); over that, navi compacts the conversation/);
    assertMatch(
      r.stdout,
      /project instructions reloaded \(.*AGENTS\.md\); the next request re-sends the conversation once/,
    );
    const instructions = server.requests.map((q) => (q.body.messages as { content: string }[])[1].content);
    assertMatch(instructions[1], /Old rule\./, "edited mid-session: not applied by itself");
    assertMatch(instructions[2], /New rule\./);
    const session = Deno.readTextFileSync(
      join(
        home.path,
        "sessions",
        Deno.readDirSync(join(home.path, "sessions")).find((e) => e.name.endsWith(".jsonl"))!.name,
      ),
    );
    assertMatch(session, /"type":"rewrite","reason":"instructions"/);
  } finally {
    await server.close();
  }
});
