import { z } from "zod";
import { defineRawTool, defineTool, type OpenAITool, type Tool } from "../tool/mod.ts";

/** The meta tool that runs a tool which is not in the tools array (deferred or found by search). */
export const CALL_TOOL = "call_tool";
/** The meta tool that searches the tools which are not in the tools array. */
export const FIND_TOOLS = "find_tools";

/** One match of `find_tools`: what the model needs to call the tool through `call_tool`. */
export interface ToolMatch {
  /** The exposed tool name (the `name` of a `call_tool` call). */
  name: string;
  /** The tool's description. */
  description: string;
  /** The JSON Schema of its arguments. */
  parameters: Record<string, unknown>;
}

/** The Chat Completions entry of a tool (the same shape the registry builds). */
export function toOpenAITool(tool: Tool): OpenAITool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

/** `call_tool`'s definition; the tool-call runner unwraps its calls, so the handler only answers misuse. */
export function callToolDefinition(): Tool {
  return defineRawTool({
    name: CALL_TOOL,
    description: "- Calls a tool that is not in this tools list: one announced in a <system-reminder> " +
      "or found with find_tools.\n- name: that tool's exact name; arguments: its arguments, as its JSON schema " +
      "describes.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The exact name of the tool to call." },
        arguments: { type: "object", description: "The tool's arguments." },
      },
      required: ["name"],
    },
    approval: "read_only",
    handler: () => ({ ok: false, error: "call_tool was not routed; name the tool to call" }),
  });
}

/** `find_tools`: ranks `searchable()` tools by the words of the query in their names and descriptions. */
export function findToolsDefinition(searchable: () => readonly OpenAITool[], search: ToolSearch): Tool {
  return defineTool({
    name: FIND_TOOLS,
    description: "- Finds tools that are not in this tools list (there are more than it holds) by keywords " +
      "in their names and descriptions.\n- Returns the best matches with name, description and JSON schema; " +
      "call one with call_tool.",
    parameters: z.object({
      query: z.string().min(1).describe("Words describing the tool you need."),
      limit: z.number().int().min(1).max(20).optional().describe("How many matches (default 5)."),
    }),
    approval: "read_only",
    concurrencySafe: true,
    handler: async ({ query, limit }) => {
      const tools = await search.find(searchable(), query, limit ?? 5);
      return tools.length
        ? { ok: true, tools }
        : { ok: true, tools, note: "No tool matches these words; try other words." };
    },
  });
}

type Index = { search(q: string, o: Record<string, unknown>): { id: string }[] };

/** Split names and text into words: snake_case, kebab-case, camelCase and punctuation all separate words. */
export function words(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/).filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A full-text index over tool names (weighted double) and descriptions, rebuilt when the tool set changes. */
export class ToolSearch {
  #indexed?: readonly OpenAITool[];
  #index?: Index;
  #byName = new Map<string, OpenAITool>();

  /** The best `limit` matches for `query` among `tools`, best first. */
  async find(tools: readonly OpenAITool[], query: string, limit: number): Promise<ToolMatch[]> {
    const index = await this.#indexFor(tools);
    const hits = index.search(query, { boost: { name: 2 }, prefix: true, fuzzy: 0.2, combineWith: "OR" });
    return hits.slice(0, limit).map((hit) => {
      const f = this.#byName.get(hit.id)!.function;
      return { name: f.name, description: f.description, parameters: f.parameters };
    });
  }

  async #indexFor(tools: readonly OpenAITool[]): Promise<Index> {
    if (this.#index && this.#indexed === tools) return this.#index;
    const { default: MiniSearch } = await import("minisearch");
    const index = new MiniSearch<{ id: string; name: string; description: string }>({
      fields: ["name", "description"],
      tokenize: words,
    });
    this.#byName = new Map(tools.map((t) => [t.function.name, t]));
    index.addAll(
      tools.map((t) => ({ id: t.function.name, name: t.function.name, description: t.function.description })),
    );
    this.#index = index;
    this.#indexed = tools;
    return index;
  }
}
