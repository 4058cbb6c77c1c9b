// An MCP server whose tool list changes on demand, for the prompt-cache tests and the benchmark.
// `deno run -A tests/support/mcp_dynamic_server.ts <name> [--tools N] [--state FILE]` serves it over stdio.
// `control_grow` adds a tool and `control_reword` changes a description (the SDK sends tools/list_changed);
// with --state both are written to FILE and replayed at start, so a restarted server lists the same tools.
import { z } from "zod";
import { McpServer, StdioServerTransport } from "./mcp_sdk_server.ts";

const VERBS = ["get", "list", "create", "update", "delete", "search", "archive", "export", "import", "sync"];
const NOUNS: Record<string, string[]> = {
  billing: [
    "invoice",
    "payment",
    "refund",
    "customer",
    "subscription",
    "coupon",
    "tax_rate",
    "payout",
    "dispute",
    "price",
  ],
  tracker: [
    "issue",
    "label",
    "milestone",
    "comment",
    "sprint",
    "epic",
    "assignee",
    "board",
    "attachment",
    "workflow",
  ],
  wiki: [
    "page",
    "space",
    "template",
    "revision",
    "draft",
    "blog_post",
    "macro",
    "bookmark",
    "tag",
    "permission",
  ],
};
const GENERIC = ["note", "record", "item", "entry", "folder", "report", "link", "task", "event", "contact"];

/** The generated tool names of a server with `count` tools: `<verb>_<noun>`, nouns first. */
export function toolNames(server: string, count: number): string[] {
  const nouns = NOUNS[server] ?? GENERIC;
  const names: string[] = [];
  for (const verb of VERBS) for (const noun of nouns) names.push(`${verb}_${noun}`);
  return names.sort((a, b) => a.split("_").slice(1).join("_").localeCompare(b.split("_").slice(1).join("_")))
    .slice(0, count);
}

function describe(server: string, tool: string): string {
  const [verb, ...noun] = tool.split("_");
  const what = noun.join(" ");
  return `${verb[0].toUpperCase()}${
    verb.slice(1)
  }s a ${what} in ${server}. Takes the ${what} id and optional ` +
    `fields; returns the ${what} as JSON with its id, title, owner, created and updated times and status.`;
}

interface State {
  grown: { name: string; description: string }[];
  descriptions: Record<string, string>;
}

/** A server named `name` with `count` generated read-only tools and the two control tools. */
export function buildDynamicServer(
  name: string,
  opts: { count?: number; statePath?: string } = {},
): McpServer {
  const server = new McpServer({ name, version: "1.0.0" });
  const state: State = { grown: [], descriptions: {} };
  if (opts.statePath) {
    try {
      Object.assign(state, JSON.parse(Deno.readTextFileSync(opts.statePath)));
    } catch { /* no state yet */ }
  }
  const save = () => opts.statePath && Deno.writeTextFileSync(opts.statePath, JSON.stringify(state));
  const handles = new Map<string, { update(u: { description: string }): void }>();
  const add = (tool: string, description: string) => {
    handles.set(
      tool,
      server.registerTool(tool, {
        description,
        inputSchema: { id: z.string().describe("The id."), fields: z.array(z.string()).optional() },
        annotations: { readOnlyHint: true },
      }, ({ id }) => ({ content: [{ type: "text", text: `${name}.${tool}(${id}) ok` }] })),
    );
  };
  for (const tool of toolNames(name, opts.count ?? 12)) {
    add(tool, state.descriptions[tool] ?? describe(name, tool));
  }
  for (const g of state.grown) add(g.name, g.description);
  server.registerTool("control_grow", {
    description: "Test control: adds a tool.",
    inputSchema: { name: z.string(), description: z.string() },
  }, ({ name: tool, description }) => {
    add(tool, description);
    state.grown.push({ name: tool, description });
    save();
    return { content: [{ type: "text", text: `added ${tool}` }] };
  });
  server.registerTool("control_reword", {
    description: "Test control: changes a tool's description.",
    inputSchema: { tool: z.string(), description: z.string() },
  }, ({ tool, description }) => {
    handles.get(tool)?.update({ description });
    state.descriptions[tool] = description;
    save();
    return { content: [{ type: "text", text: `reworded ${tool}` }] };
  });
  return server;
}

if (import.meta.main) {
  const [name = "dyn", ...rest] = Deno.args;
  const flag = (f: string) => {
    const i = rest.indexOf(f);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const count = Number(flag("--tools") ?? 12);
  await buildDynamicServer(name, { count, statePath: flag("--state") }).connect(new StdioServerTransport());
}
