import { join } from "node:path";
import { startLlmServer } from "./support/llm_server.ts";
import { assertEquals, assertMatch, runNavi, tempDir } from "./helpers.ts";

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
    assertMatch(r.stdout, /7 tools, fingerprint [0-9a-f]{8}/);
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
