import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { assertEquals, assertMatch, runNavi, tempDir } from "../../helpers.ts";

Deno.test("the REPL reads piped prompts and commands until /exit", async () => {
  await using home = await tempDir();
  const server = startLlmServer([
    { toolCalls: [{ name: "bash", arguments: '{"command":"echo live-output"}' }] },
    { text: "It printed live-output." },
  ]);
  try {
    await Deno.writeTextFile(
      join(home.path, "config.json"),
      JSON.stringify({
        providers: { local: { base_url: server.url, api_key: "k" } },
        model: "m",
        approval: "auto",
      }),
    );
    const r = await runNavi([], {
      home: home.path,
      stdin:
        "/tools\nrun echo\n/model other-model\n/help\n/approval plan\n/clear\n/nope\n/exit\nnever sent\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /9 tools, fingerprint [0-9a-f]{8}/);
    assertMatch(r.stdout, /● bash command="echo live-output"\nlive-output\n {2}⎿ ok \(exit_code 0\)/);
    assertEquals(r.stdout.split("live-output\n").length - 1, 1, "bash output printed once");
    assertMatch(r.stdout, /It printed live-output\.\n/);
    assertMatch(r.stdout, /model set to other-model \(provider local\)/);
    assertMatch(r.stdout, /\/approval \[plan\|ask\|auto\]/);
    assertMatch(r.stdout, /approval mode: plan/);
    assertMatch(r.stdout, /new conversation \d{8}-\d{6}-[0-9a-f]{6}/);
    assertMatch(r.stdout, /unknown command \/nope; try \/help/);
    assertEquals(server.requests.length, 2, "nothing after /exit is sent");
  } finally {
    await server.close();
  }
});

Deno.test("the REPL exits at end of input", async () => {
  await using home = await tempDir();
  const r = await runNavi([], { home: home.path, stdin: "/help\n" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /\/exit\s+leave navi/);
});

Deno.test("/compact summarizes without tools and continues in a new session that starts from the summary", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{ text: "Hi there." }, { text: "User said hello; nothing else yet." }, {
    text: "Continuing.",
  }]);
  try {
    await Deno.writeTextFile(
      join(home.path, "config.json"),
      JSON.stringify({ providers: { local: { base_url: server.url, api_key: "k" } }, model: "m" }),
    );
    const r = await runNavi([], { home: home.path, stdin: "hello\n/compact\nwhat next?\n/exit\n" });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /compacted \d{8}-\d{6}-[0-9a-f]{6} into this conversation/);
    const compact = server.requests[1].body;
    assertEquals(compact.tools, undefined, "the summary request offers no tools");
    assertMatch((compact.messages as { content: string }[]).at(-1)!.content, /^Summarize this conversation/);
    const next = server.requests[2].body.messages as { role: string; content: string }[];
    assertEquals(next.map((m) => m.role), ["system", "user", "user"]);
    assertMatch(
      next[1].content,
      /^<conversation-summary session="[^"]+">\nUser said hello; nothing else yet\.\n/,
    );
    assertEquals(next[2].content, "what next?");
    const sessions = [...Deno.readDirSync(join(home.path, "sessions"))];
    assertEquals(sessions.length, 2, "the old session is kept; the new one starts from the summary");
  } finally {
    await server.close();
  }
});
