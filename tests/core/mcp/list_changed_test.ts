import { NaviApp, openConversation } from "../../../core/mod.ts";
import { ListRefresher } from "../../../core/mcp/list_refresh.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { MCP_TEST, stdioServer } from "../../support/mcp_manager.ts";
import { assert, assertEquals, tempDir, until } from "../../helpers.ts";

const toolNames = (body: Record<string, unknown>) =>
  (body.tools as { function: { name: string } }[]).map((t) => t.function.name);

Deno.test("refreshes coalesce: a burst during a refresh makes one more, settled() waits for both", async () => {
  const gates: (() => void)[] = [];
  let runs = 0;
  const r = new ListRefresher(() => {
    runs++;
    return new Promise<void>((resolve) => gates.push(resolve));
  });
  for (let i = 0; i < 20; i++) r.trigger();
  assertEquals(runs, 1);
  let settled = false;
  const waiting = r.settled(5000).then(() => (settled = true));
  gates.shift()!();
  await until(() => runs === 2, 5000, "the coalesced second refresh");
  assertEquals([runs, settled], [2, false]);
  gates.shift()!();
  await waiting;
  assertEquals([runs, settled, r.busy], [2, true, false]);
  r.trigger();
  const started = performance.now();
  await r.settled(50);
  assert(performance.now() - started < 1000, "settled() is bounded");
  gates.shift()!();
});

Deno.test(
  "a tool enabled by a call (list_changed before its result) is in the very next request; a burst is one or two re-lists",
  MCP_TEST,
  async () => {
    await using home = await tempDir();
    const llm = startLlmServer((i) =>
      i === 0
        ? { toolCalls: [{ name: "mcp__t__enable_extra", arguments: "{}" }] }
        : i === 1
        ? { toolCalls: [{ name: "mcp__t__toggle_burst", arguments: '{"n":20}' }] }
        : i === 2
        ? { toolCalls: [{ name: "mcp__t__list_requests", arguments: "{}" }] }
        : { text: "done" }
    );
    const app = new NaviApp({
      home: home.path,
      workspace: home.path,
      config: {
        providers: { t: { base_url: llm.url, api_key: "k" } },
        model: "m",
        mcp_servers: { t: stdioServer() },
      },
      builtins: builtinTools(),
      env: Deno.env,
    });
    try {
      await app.mcp.start();
      const { agent } = openConversation(app, { approval: "auto" });
      const before = Number(
        (await app.registry.invoke("mcp__t__list_requests", "{}", {
          workspace: home.path,
          signal: new AbortController().signal,
          confirm: () => Promise.resolve(false),
        })).output,
      );
      await agent.run("enable it", new AbortController().signal);
      assert(!toolNames(llm.requests[0].body).includes("mcp__t__extra"));
      assertEquals(toolNames(llm.requests[1].body).at(-1), "mcp__t__extra");
      const reminder = (llm.requests[1].body.messages as { content: string }[]).at(-1)!.content;
      assertEquals(reminder, "<system-reminder>Tools added: mcp__t__extra.</system-reminder>");
      const after =
        JSON.parse((llm.requests[3].body.messages as { content: string }[]).at(-1)!.content).output;
      const lists = Number(after) - before;
      assert(
        lists >= 2 && lists <= 3,
        `one re-list for the enable, one or two for the burst of 40 (${lists})`,
      );
      assert(toolNames(llm.requests[3].body).includes("mcp__t__extra"), "the burst ends enabled");
    } finally {
      await app.close();
      await llm.close();
    }
  },
);
