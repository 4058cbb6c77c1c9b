import { type Tool, TOOL_NAME_PATTERN, type ToolContext, type ToolResult, type ToolSource } from "./types.ts";

/** One entry of the Chat Completions `tools` array. */
export interface OpenAITool {
  /** Always `function`. */
  type: "function";
  /** The tool's name, its description for the model and the JSON Schema of its arguments. */
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const BUILTIN: ToolSource = { kind: "builtin", origin: "navi" };

/** Raised by `register` for a bad or duplicate name. */
export class RegistryError extends Error {}

/** Holds the tools navi can run, by name, in registration order. Create as many as you like. */
export class ToolRegistry {
  #tools = new Map<string, Tool>();
  #sources = new Map<string, ToolSource>();
  #openai = new WeakMap<Tool, OpenAITool>();
  #version = 0;

  /** Increases whenever a tool is added or removed. */
  get version(): number {
    return this.#version;
  }

  /** Add a tool; throws RegistryError for an invalid or duplicate name. */
  register(tool: Tool, source: ToolSource = BUILTIN): void {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new RegistryError(
        `Invalid tool name ${JSON.stringify(tool.name)}: use 1-64 characters from a-z A-Z 0-9 _ -`,
      );
    }
    if (this.#tools.has(tool.name)) {
      throw new RegistryError(`Tool ${JSON.stringify(tool.name)} is already registered`);
    }
    this.#tools.set(tool.name, tool);
    this.#sources.set(tool.name, source);
    this.#changed();
  }

  /** Remove a tool by name; returns whether it was there. */
  unregister(name: string): boolean {
    const removed = this.#tools.delete(name);
    this.#sources.delete(name);
    if (removed) this.#changed();
    return removed;
  }

  /** Remove every tool whose source matches. */
  unregisterWhere(pred: (tool: Tool, source: ToolSource) => boolean): string[] {
    const names = [...this.#tools.values()].filter((t) => pred(t, this.#sources.get(t.name)!)).map((t) =>
      t.name
    );
    for (const name of names) {
      this.#tools.delete(name);
      this.#sources.delete(name);
    }
    if (names.length) this.#changed();
    return names;
  }

  /** The tool registered under `name`. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Where a registered tool came from. */
  sourceOf(name: string): ToolSource | undefined {
    return this.#sources.get(name);
  }

  /** Whether a tool is registered under `name`. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Tools in registration order; `readOnly` keeps read_only tools only. */
  list(opts: { readOnly?: boolean } = {}): Tool[] {
    const all = [...this.#tools.values()];
    return opts.readOnly ? all.filter((t) => t.approval === "read_only") : all;
  }

  /** The Chat Completions `tools` array for `tools` (default: all); entries are cached per tool. */
  toOpenAITools(tools: Tool[] = this.list()): OpenAITool[] {
    return tools.map((t) => this.openAITool(t));
  }

  /** The cached Chat Completions entry of one tool. */
  openAITool(tool: Tool): OpenAITool {
    let entry = this.#openai.get(tool);
    if (!entry) {
      entry = {
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      };
      this.#openai.set(tool, entry);
    }
    return entry;
  }

  /** Run a tool by name. Never throws: every failure is `{ ok: false, error }`. */
  async invoke(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = this.#tools.get(name);
    if (!tool) {
      return { ok: false, error: `Unknown tool: ${name}` };
    }
    return await tool.run(args, ctx);
  }

  #changed(): void {
    this.#version++;
  }
}
