// Resources and prompts of the reference server-everything through navi's CLI.
import { SERVER_EVERYTHING } from "../../../support/warm.ts";
import { startLlmServer } from "../../../support/llm_server.ts";
import { assertEquals, assertMatch, llmConfig, runNavi, tempDir, writeConfig } from "../../../helpers.ts";

const EVERYTHING = { command: Deno.execPath(), args: ["run", "-A", SERVER_EVERYTHING, "stdio"] };
const userMessages = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: string }[]).filter((m) => m.role === "user").map((m) =>
    m.content
  );

Deno.test("navi mcp resources lists server-everything's resources and templates", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { mcp_servers: { everything: EVERYTHING } });
  const r = await runNavi(["mcp", "resources", "everything"], { home: home.path });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /demo:\/\/resource\/static\/document\/features\.md\s+features\.md\s+text\/markdown/);
  assertMatch(r.stdout, /demo:\/\/resource\/dynamic\/text\/\{resourceId\}\s+Dynamic Text Resource/);
  assertMatch(r.stdout, /mention one as @everything:<uri>/);
  const missing = await runNavi(["mcp", "resources", "nope"], { home: home.path });
  assertEquals([missing.code, missing.stderr], [1, "navi: no MCP server named nope in config.json\n"]);
});

Deno.test("-p attaches the resources a prompt mentions as @server:uri; an unreadable one is reported", async () => {
  await using home = await tempDir();
  const llm = startLlmServer([{ text: "read them" }]);
  try {
    await writeConfig(home.path, llmConfig(llm.url, { mcp_servers: { everything: EVERYTHING } }));
    const prompt = "compare @everything:demo://resource/static/document/features.md, " +
      "@everything:demo://resource/dynamic/text/2 and @everything:demo://nope/1";
    const r = await runNavi(["-p", prompt], { home: home.path });
    assertEquals([r.code, r.stdout], [0, "read them\n"], r.stderr);
    const [sent] = userMessages(llm.requests[0].body);
    assertEquals(sent.slice(0, prompt.length), prompt, "the message as typed comes first");
    assertMatch(
      sent,
      /<resource server="everything" uri="demo:\/\/resource\/static\/document\/features\.md">\n# Everything Server - Features\n/,
    );
    assertMatch(
      sent,
      /<resource server="everything" uri="demo:\/\/resource\/dynamic\/text\/2">\nResource 2: This is a plaintext resource created at /,
    );
    assertMatch(
      r.stderr,
      /attached @everything:demo:\/\/resource\/static\/document\/features\.md \(\d+ chars\)/,
    );
    assertMatch(r.stderr, /navi: warning: @everything:demo:\/\/nope\/1: /);
  } finally {
    await llm.close();
  }
});

Deno.test("server-everything's prompts are slash commands: in /help, with arguments, run as a user turn", async () => {
  await using home = await tempDir();
  const llm = startLlmServer(() => ({ text: "ok" }));
  try {
    await writeConfig(home.path, llmConfig(llm.url, { mcp_servers: { everything: EVERYTHING } }));
    const r = await runNavi([], {
      home: home.path,
      stdin: [
        "/help",
        "/mcp:everything:args-prompt city=Paris state=Texas",
        "/mcp:everything:args-prompt Lyon",
        "/mcp:everything:simple-prompt",
        "/mcp:everything:args-prompt",
        "/mcp:everything:args-prompt town=Rome",
        "/exit",
      ].join("\n") + "\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /\/mcp:everything:args-prompt <city> \[state\]\s+A prompt with two arguments/);
    assertMatch(r.stdout, /\/mcp:everything:simple-prompt\s+A prompt with no arguments/);
    assertEquals(llm.requests.map((q) => userMessages(q.body).at(-1)), [
      "What's weather in Paris, Texas?",
      "What's weather in Lyon?",
      "This is a simple prompt without arguments.",
    ]);
    assertMatch(
      r.stdout,
      /\/mcp:everything:args-prompt needs city: \/mcp:everything:args-prompt <city> \[state\]/,
    );
    assertMatch(r.stdout, /\/mcp:everything:args-prompt has no argument town \(it takes city, state\)/);
  } finally {
    await llm.close();
  }
});
