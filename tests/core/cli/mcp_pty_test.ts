// The REPL under a real terminal (tmux, private socket): MCP prompt commands ask for missing arguments, and
// Tab completes prompt commands and @server:uri resource mentions.
import { SERVER_EVERYTHING } from "../../support/warm.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { Pty } from "../../support/pty.ts";
import { assertEquals, llmConfig, MAIN, tempDir, until, writeConfig } from "../../helpers.ts";

const userMessages = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: string }[]).filter((m) => m.role === "user").map((m) =>
    m.content
  );

Deno.test("REPL: Tab completes /mcp:<server>:<prompt> and @<server>:<uri>; a missing argument is asked for", async () => {
  await using home = await tempDir();
  const llm = startLlmServer(() => ({ text: "noted" }));
  let pty: Pty | undefined;
  const screen = () => pty!.screen({ all: true });
  const type = (...keys: string[]) => pty!.keys(...keys);
  try {
    await writeConfig(
      home.path,
      llmConfig(llm.url, {
        mcp_servers: {
          everything: { command: Deno.execPath(), args: ["run", "-A", SERVER_EVERYTHING, "stdio"] },
        },
      }),
    );
    pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
      env: { NAVI_HOME: home.path, NO_COLOR: "1" },
      cwd: home.path,
    });
    await until(async () => (await screen()).includes("/help for commands"), 20_000, "the REPL");
    let asked = 0;
    await until(
      async () => {
        await type("/mcp", "Enter");
        asked++;
        const tables = () => screen().then((text) => text.split(/NAME\s+TRANSPORT\s+STATUS/).slice(1));
        await until(async () => (await tables()).length >= asked, 5000, "the /mcp table");
        return /everything\s+stdio\s+connected/.test((await tables()).at(-1)!);
      },
      20_000,
      "server-everything connected",
    );

    await type("/mcp:everything:ar", "Tab");
    await until(async () => (await screen()).includes("› /mcp:everything:args-prompt"), 5000, "completion");
    await type("Enter");
    await until(async () => (await screen()).includes("city (Name of the city):"), 5000, "the question");
    await type("Berlin", "Enter");
    await until(() => llm.requests.length === 1, 10_000, "the prompt's turn");
    assertEquals(userMessages(llm.requests[0].body).at(-1), "What's weather in Berlin?");
    // Type the next line only once that turn is over: keys typed while a turn runs are not completed.
    await until(async () => /noted\n[\s\S]*›/.test(await screen()), 10_000, "the answer and the next prompt");

    await type("read @everything:demo://resource/static/document/featu", "Tab");
    await until(async () => (await screen()).includes("document/features.md"), 15_000, "mention completion");
    await type("Enter");
    await until(() => llm.requests.length === 2, 10_000, "the mention's turn");
    const sent = userMessages(llm.requests[1].body).at(-1)!;
    assertEquals(sent.split("\n")[0], "read @everything:demo://resource/static/document/features.md");
    assertEquals(sent.includes("# Everything Server - Features"), true);
    await type("/exit", "Enter");
  } finally {
    await pty?.close();
    await llm.close();
  }
});
