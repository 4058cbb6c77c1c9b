import type { ToolRegistry } from "../registry.ts";
import { defineRawTool } from "../tool_define.ts";
import type { ToolProgress, ToolResult } from "../tool_types.ts";
import { approvalFor, describe, exposedName } from "./convert.ts";
import type { McpTool } from "./sdk.ts";

/** Calls one tool on the server: `tool` is the server's own name. */
export type McpCall = (
  tool: string,
  args: Record<string, unknown>,
  opts: { signal: AbortSignal; timeoutMs: number; onProgress?: (p: ToolProgress) => void },
) => Promise<ToolResult>;

/**
 * Keeps one server's tools in the registry as `mcp__<server>__<tool>`: registers new and redefined tools,
 * removes vanished ones, reports name collisions. Unchanged tools keep their registry entry (and so their
 * cached model-facing object).
 */
export class McpToolBridge {
  /** Exposed navi name -> the server's tool name. */
  readonly tools: Map<string, string> = new Map();
  /** Tools skipped at the last listing, one line each. */
  warnings: string[] = [];
  #registry: ToolRegistry;
  #server: string;
  #callTimeoutMs: number;
  #call: McpCall;
  #defs = new Map<string, string>();

  /** Keep `opts.server`'s tools in `registry`; `opts.call` runs each call, limited to `callTimeoutMs`. */
  constructor(registry: ToolRegistry, opts: { server: string; callTimeoutMs: number; call: McpCall }) {
    this.#registry = registry;
    this.#server = opts.server;
    this.#callTimeoutMs = opts.callTimeoutMs;
    this.#call = opts.call;
  }

  /** Make the registry match the server's current tool list. */
  apply(list: McpTool[]): void {
    const wanted = this.#select(list);
    for (const name of [...this.tools.keys()]) {
      if (!wanted.has(name)) this.#remove(name);
    }
    for (const [name, tool] of wanted) {
      const def = JSON.stringify(tool);
      if (this.#defs.get(name) === def) continue;
      if (this.tools.has(name)) this.#registry.unregister(name);
      const timeoutMs = this.#callTimeoutMs;
      this.#registry.register(
        defineRawTool({
          name,
          description: describe(this.#server, tool),
          inputSchema: tool.inputSchema as Record<string, unknown>,
          approval: approvalFor(tool),
          concurrencySafe: tool.annotations?.readOnlyHint === true,
          timeoutMs: timeoutMs + 1000,
          handler: (args, ctx) =>
            this.#call(tool.name, args, { signal: ctx.signal, timeoutMs, onProgress: ctx.onProgress }),
        }),
        { kind: "mcp", origin: this.#server },
      );
      this.tools.set(name, tool.name);
      this.#defs.set(name, def);
    }
  }

  /** Remove every tool of this server from the registry. */
  clear(): void {
    for (const name of [...this.tools.keys()]) this.#remove(name);
  }

  #select(list: McpTool[]): Map<string, McpTool> {
    const wanted = new Map<string, McpTool>();
    this.warnings = [];
    for (const tool of list) {
      const name = exposedName(this.#server, tool.name);
      const taken = wanted.get(name)?.name ?? this.#foreignOwner(name);
      if (taken) {
        this.warnings.push(`tool ${tool.name} maps to ${name}, already taken by ${taken}; skipped`);
        continue;
      }
      wanted.set(name, tool);
    }
    return wanted;
  }

  #foreignOwner(name: string): string | undefined {
    const owner = this.#registry.sourceOf(name);
    return owner && !(owner.kind === "mcp" && owner.origin === this.#server) ? owner.origin : undefined;
  }

  #remove(name: string): void {
    this.#registry.unregister(name);
    this.tools.delete(name);
    this.#defs.delete(name);
  }
}
