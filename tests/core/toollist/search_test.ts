// Many tools: past tools.search_above (64) or 128 in all, further MCP tools are not sent as schemas; the model
// finds them with find_tools and calls them through call_tool, and the array stays the same all session.
import { join } from "node:path";
import {
  type Config,
  deferralSettings,
  NaviApp,
  type OpenAITool,
  openConversation,
  ToolList,
  ToolSearch,
  words,
} from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { rawField } from "../../support/raw_json.ts";
import { assert, assertEquals, assertMatch, ROOT, tempDir } from "../../helpers.ts";

const SERVER = join(ROOT, "tests/support/mcp_dynamic_server.ts");
const servers = Object.fromEntries(
  ["billing", "tracker", "wiki"].map((name) => [name, {
    command: Deno.execPath(),
    args: ["run", "-A", SERVER, name, "--tools", "100"],
  }]),
);

Deno.test(
  "300 MCP tools on 3 servers: the array holds 64 and never changes; find_tools finds the rest, call_tool runs them",
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    await using home = await tempDir();
    const queue: Step[] = [
      { toolCalls: [{ name: "find_tools", arguments: '{"query":"sync refund","limit":3}' }] },
      {
        toolCalls: [{
          name: "call_tool",
          arguments: JSON.stringify({ name: "mcp__wiki__archive_blog_post", arguments: { id: "p7" } }),
        }],
      },
      { text: "Done." },
    ];
    const llm = startLlmServer(() => queue.shift() ?? { text: "ok" });
    const config: Config = {
      providers: { t: { base_url: llm.url, api_key: "k" } },
      model: "m",
      mcp_servers: servers,
      features: { "mcp__*__control_*": false },
    };
    const app = new NaviApp({
      home: home.path,
      workspace: home.path,
      config,
      builtins: builtinTools(),
      env: Deno.env,
    });
    try {
      await app.mcp.start();
      assertEquals(app.mcp.states().map((s) => s.tools), [102, 102, 102], "100 tools and 2 controls each");
      const convo = openConversation(app, { approval: "auto" });
      const result = await convo.agent.run("sync the refund", new AbortController().signal);
      assertEquals(result.text, "Done.");

      const arrays = llm.requests.map((q) => rawField(q.raw, "tools"));
      assert(arrays.every((a) => a === arrays[0]), "the same tools array in every request");
      const names = JSON.parse(arrays[0]).map((t: OpenAITool) => t.function.name);
      assertEquals(names.length, 64);
      const navi = builtinTools().length + 3;
      assertEquals(names.slice(0, navi), [
        ...builtinTools().map((t) => t.name),
        "task",
        "call_tool",
        "find_tools",
      ]);
      assert(
        names.slice(navi).every((n: string) => n.startsWith("mcp__billing__")),
        "then MCP tools in order",
      );

      const first = llm.requests[0].body.messages as { content: string }[];
      assertMatch(
        first.at(-1)!.content,
        /^<system-reminder>250 more tools are not in your tools list from billing \(50\), tracker \(100\), wiki \(100\)\. Find them with find_tools/,
      );
      const found = JSON.parse((llm.requests[1].body.messages as { content: string }[]).at(-1)!.content);
      const matches = found.tools.map((t: { name: string }) => t.name);
      assertEquals(matches.length, 3);
      assertEquals(matches[0], "mcp__billing__sync_refund", "both words in the name rank first");
      assert(matches.every((n: string) => /sync|refund/.test(n)), matches.join());
      const refund = app.registry.get("mcp__billing__sync_refund")!;
      assertEquals(found.tools[0], {
        name: refund.name,
        description: refund.description,
        parameters: refund.inputSchema,
      }, "name, description and JSON schema");
      assert(!names.includes("mcp__billing__sync_refund"), "it was not in the array");
      const called = JSON.parse((llm.requests[2].body.messages as { content: string }[]).at(-1)!.content);
      assertEquals(called, { ok: true, output: "wiki.archive_blog_post(p7) ok" });

      queue.push({ toolCalls: [{ name: "find_tools", arguments: '{"query":"archive blog post"}' }] }, {
        text: "ok",
      });
      const resumed = openConversation(app, { resume: convo.agent.session.meta.id, approval: "auto" });
      await resumed.agent.run("and after a resume?", new AbortController().signal);
      assertEquals(rawField(llm.requests[3].raw, "tools"), arrays[0], "the same array after the resume");
      assertEquals(
        (llm.requests[3].body.messages as { content: string }[]).at(-1)!.content,
        "and after a resume?",
      );
      const again = JSON.parse((llm.requests[4].body.messages as { content: string }[]).at(-1)!.content);
      assertEquals(
        again.tools[0].name,
        "mcp__wiki__archive_blog_post",
        "find_tools still searches after a resume",
      );

      const wide = new ToolList(app.registry, {
        readOnly: () => false,
        mode: () => "ask",
        settings: deferralSettings({ search_above: 500 }),
        features: app.config.features,
      }).deferral.view();
      assertEquals(wide.tools.length, 128, "never more than 128, whatever search_above says");
      assertEquals(wide.searchable.length, 300 + navi - 128);
    } finally {
      await app.close();
      await llm.close();
    }
  },
);

Deno.test("find_tools ranks by the words of the query in names (double weight) and descriptions", async () => {
  assertEquals(words("mcp__git__createPullRequest_v2"), ["mcp", "git", "create", "pull", "request", "v2"]);
  const tool = (name: string, description: string): OpenAITool => ({
    type: "function",
    function: { name, description, parameters: { type: "object" } },
  });
  const tools = [
    tool("mcp__a__send_mail", "Sends an email message to a recipient."),
    tool("mcp__a__list_invoices", "Lists invoices; each invoice has a total."),
    tool("mcp__b__export_report", "Exports a report, for example of invoices, as CSV."),
    tool("mcp__b__delete_invoice", "Deletes an invoice."),
  ];
  const search = new ToolSearch();
  const names = async (q: string, n = 4) => (await search.find(tools, q, n)).map((m) => m.name);
  assertEquals((await names("export invoices")).slice(0, 2), [
    "mcp__b__export_report",
    "mcp__a__list_invoices",
  ]);
  assertEquals(await names("email", 1), ["mcp__a__send_mail"]);
  assertEquals(await names("delete invoice", 1), ["mcp__b__delete_invoice"]);
  assertEquals(await names("kubernetes"), []);
});
