import { join } from "node:path";
import { NaviApp, openConversation } from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { assert, assertEquals, assertMatch, ROOT, tempDir, until } from "../../helpers.ts";

Deno.test(
  "a conversation survives its MCP server being killed and uses the tool again after the reconnect",
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    await using home = await tempDir();
    const llm = startLlmServer((_i, body) => {
      const last = (body.messages as { role: string; content: string }[]).at(-1)!;
      if (last.role === "tool") return { text: `tool said ${last.content}` };
      return { toolCalls: [{ name: "mcp__srv__echo", arguments: '{"message":"hi"}' }] };
    });
    const app = new NaviApp({
      home: home.path,
      workspace: home.path,
      config: {
        providers: { t: { base_url: llm.url, api_key: "k" } },
        model: "m",
        mcp_servers: {
          srv: {
            command: Deno.execPath(),
            args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")],
          },
        },
      },
      builtins: builtinTools(),
      env: Deno.env,
    });
    try {
      await app.mcp.start();
      const { agent } = openConversation(app, {});
      const signal = new AbortController().signal;
      assertEquals((await agent.run("one", signal)).text, 'tool said {"ok":true,"output":"echo: hi"}');

      const pid = Number(
        (await app.registry.invoke("mcp__srv__pid", "{}", {
          workspace: home.path,
          signal,
          confirm: () => Promise.resolve(false),
        })).output,
      );
      Deno.kill(pid, "SIGKILL");
      const status = () => app.mcp.states()[0].status;
      await until(() => status() !== "connected", 5000, "the server seen as down");
      const down = await agent.run("two", signal);
      assertMatch(down.text, /MCP server 'srv' is not connected/);

      await until(() => status() === "connected", 10_000, "the reconnect");
      const back = await agent.run("three", signal);
      assertEquals(back.text, 'tool said {"ok":true,"output":"echo: hi"}');
      const tools = llm.requests.map((q) => JSON.stringify(q.body.tools));
      assert(tools.every((t) => t === tools[0]), "the tool list never changed");
    } finally {
      await app.close();
      await llm.close();
    }
  },
);
