import { defineRawTool, type ToolProgress, type ToolRegistry, type ToolResult } from "../tool/mod.ts";
import { approvalFor, describe, exposedName } from "./convert.ts";
import { NameClaims } from "./names.ts";
import type { McpTool } from "./sdk.ts";

/** How one call may run: aborted by `signal`; `timeoutMs` without progress, `maxMs` in all. */
export interface McpCallOptions {
  /** Aborted by Ctrl-C or the tool's own time limit. */
  signal: AbortSignal;
  /** How long the call may go without an answer or a progress report (call_timeout_s). */
  timeoutMs: number;
  /** How long the call may take in all, progress or not (max_call_s). */
  maxMs: number;
  /** Receives the server's progress reports. */
  onProgress?(progress: ToolProgress): void;
}

/** Calls one tool on the server: `tool` is the server's own name. */
export type McpCall = (
  tool: string,
  args: Record<string, unknown>,
  opts: McpCallOptions,
) => Promise<ToolResult>;

/**
 * Keeps one server's tools in the registry as `mcp__<server>__<tool>`: registers new and redefined tools,
 * removes vanished ones, reports name collisions (decided by `NameClaims`: config order). Unchanged tools
 * keep their registry entry (and so their cached model-facing object).
 */
export class McpToolBridge {
  /** Exposed navi name -> the server's tool name. */
  readonly tools: Map<string, string> = new Map();
  /** Tools skipped at the last listing, one line each. */
  warnings: string[] = [];
  #registry: ToolRegistry;
  #server: string;
  #callTimeoutMs: number;
  #maxCallMs: number;
  #call: McpCall;
  #claims: NameClaims;
  #defs = new Map<string, string>();
  #last: McpTool[] = [];

  /** Keep `opts.server`'s tools in `registry`; `opts.call` runs each call (see McpCallOptions for limits). */
  constructor(
    registry: ToolRegistry,
    opts: { server: string; callTimeoutMs: number; maxCallMs: number; call: McpCall; claims?: NameClaims },
  ) {
    this.#registry = registry;
    this.#server = opts.server;
    this.#callTimeoutMs = opts.callTimeoutMs;
    this.#maxCallMs = Math.max(opts.maxCallMs, opts.callTimeoutMs);
    this.#call = opts.call;
    this.#claims = opts.claims ?? new NameClaims([opts.server]);
    this.#claims.subscribe(opts.server, () => this.apply(this.#last));
  }

  /** Make the registry match the server's current tool list. */
  apply(list: McpTool[]): void {
    this.#last = list;
    const { wanted, warnings } = this.#select(list);
    const affected = this.#claims.set(this.#server, new Set(wanted.keys()));
    const owned = new Map<string, McpTool>();
    for (const [name, tool] of wanted) {
      const owner = this.#claims.owner(name);
      if (owner === this.#server) owned.set(name, tool);
      else {warnings.push(
          `tool ${tool.name} maps to ${name}, owned by server ${owner} (listed earlier); skipped`,
        );}
    }
    this.warnings = warnings;
    for (const name of [...this.tools.keys()]) {
      if (!owned.has(name)) this.#remove(name);
    }
    this.#claims.notify(affected);
    for (const [name, tool] of owned) this.#register(name, tool);
  }

  /** Remove every tool of this server from the registry (and give up its names). */
  clear(): void {
    this.#last = [];
    const affected = this.#claims.set(this.#server, new Set());
    for (const name of [...this.tools.keys()]) this.#remove(name);
    this.#claims.notify(affected);
  }

  #register(name: string, tool: McpTool): void {
    const def = JSON.stringify(tool);
    if (this.#defs.get(name) === def) return;
    if (this.tools.has(name)) this.#remove(name);
    const limits = { timeoutMs: this.#callTimeoutMs, maxMs: this.#maxCallMs };
    if (this.#registry.has(name)) {
      this.warnings.push(`tool ${tool.name} maps to ${name}, which is still registered elsewhere; skipped`);
      return;
    }
    this.#registry.register(
      defineRawTool({
        name,
        description: describe(this.#server, tool),
        inputSchema: tool.inputSchema as Record<string, unknown>,
        approval: approvalFor(tool),
        concurrencySafe: tool.annotations?.readOnlyHint === true,
        timeoutMs: this.#maxCallMs + 1000,
        handler: (args, ctx) =>
          this.#call(tool.name, args, { signal: ctx.signal, onProgress: ctx.onProgress, ...limits }),
      }),
      { kind: "mcp", origin: this.#server },
    );
    this.tools.set(name, tool.name);
    this.#defs.set(name, def);
  }

  #select(list: McpTool[]): { wanted: Map<string, McpTool>; warnings: string[] } {
    const wanted = new Map<string, McpTool>();
    const warnings: string[] = [];
    for (const tool of list) {
      const name = exposedName(this.#server, tool.name);
      const taken = wanted.get(name)?.name ?? this.#foreignOwner(name);
      if (taken) {
        warnings.push(`tool ${tool.name} maps to ${name}, already taken by ${taken}; skipped`);
        continue;
      }
      wanted.set(name, tool);
    }
    return { wanted, warnings };
  }

  #foreignOwner(name: string): string | undefined {
    const owner = this.#registry.sourceOf(name);
    return owner && owner.kind !== "mcp" ? owner.origin : undefined;
  }

  #remove(name: string): void {
    this.#registry.unregister(name);
    this.tools.delete(name);
    this.#defs.delete(name);
  }
}
