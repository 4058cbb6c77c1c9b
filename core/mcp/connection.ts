import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpServerConfig } from "../config.ts";
import type { ToolRegistry } from "../registry.ts";
import { defineRawTool, errorMessage, type ToolResult } from "../tool.ts";
import { approvalFor, convertResult, describe, exposedName } from "./convert.ts";
import { Client, ElicitRequestSchema, ListRootsRequestSchema, type McpTool } from "./sdk.ts";
import { createTransport } from "./transport.ts";

/** An elicitation request from a server; the answer follows the MCP ElicitResult shape. */
export type Elicit = (req: { server: string; message: string; schema: unknown }) => Promise<{
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}>;

/** Timing of reconnects and the circuit breaker (tests shorten them). */
export interface McpTiming {
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  maxReconnects: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
}

export const DEFAULT_TIMING: McpTiming = {
  reconnectBaseMs: 1000,
  reconnectMaxMs: 60_000,
  maxReconnects: 8,
  breakerThreshold: 3,
  breakerCooldownMs: 60_000,
};

export interface ConnectionOptions {
  home: string;
  workspace: string;
  version: string;
  env: { get(key: string): string | undefined };
  timing: McpTiming;
  elicit?: Elicit;
  /** Told after the server's tools were (re)registered. */
  onToolsChanged?(server: string): void;
}

export type McpStatus = "connecting" | "connected" | "failed" | "disconnected" | "disabled";

/** One configured MCP server: its client, its tools in the registry, reconnects and circuit breaker. */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  status: McpStatus = "disconnected";
  error?: string;
  warnings: string[] = [];
  /** Exposed navi name -> original MCP tool name. */
  readonly tools = new Map<string, string>();
  #o: ConnectionOptions;
  #registry: ToolRegistry;
  #client?: Client;
  #pid?: () => number | null | undefined;
  #closed = false;
  #attempts = 0;
  #timer?: ReturnType<typeof setTimeout>;
  #failures = 0;
  #openedAt = 0;
  #trial = false;
  #defs = new Map<string, string>();

  constructor(registry: ToolRegistry, opts: ConnectionOptions & { name: string; config: McpServerConfig }) {
    this.#registry = registry;
    this.name = opts.name;
    this.config = opts.config;
    this.#o = opts;
    if (opts.config.enabled === false) this.status = "disabled";
  }

  get transportKind(): "stdio" | "http" {
    return this.config.url ? "http" : "stdio";
  }

  /** Connect (bounded by connect_timeout_s) and register the server's tools. Never throws. */
  async connect(): Promise<void> {
    if (this.#closed || this.status === "disabled") return;
    this.status = "connecting";
    const timeoutMs = (this.config.connect_timeout_s ?? 30) * 1000;
    const client = new Client({ name: "navi", version: this.#o.version }, {
      capabilities: { roots: { listChanged: false }, elicitation: {} },
      listChanged: {
        tools: {
          onChanged: (err, tools) => {
            if (!err && tools && this.#client === client) this.#apply(tools);
          },
        },
      },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(this.#o.workspace).href, name: basename(this.#o.workspace) }],
    }));
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      if (!this.#o.elicit) return { action: "decline" };
      const p = req.params as { message: string; requestedSchema?: unknown };
      return await this.#o.elicit({ server: this.name, message: p.message, schema: p.requestedSchema });
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const { transport, pid } = createTransport(this.name, this.config, this.#o);
      this.#pid = pid;
      this.#client = client;
      client.onclose = () => this.#onClosed(client);
      await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: timeoutMs });
          this.#apply(await listAll(client, timeoutMs));
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
        }),
      ]);
      if (this.#client !== client) return;
      this.status = "connected";
      this.error = undefined;
      this.#attempts = 0;
      this.#failures = 0;
    } catch (err) {
      if (this.#client === client) this.#client = undefined;
      await closeQuickly(client, this.#pid?.());
      if (this.#closed) return;
      this.status = "failed";
      this.error = oneLine(errorMessage(err));
      this.#scheduleReconnect();
    } finally {
      clearTimeout(timer);
    }
  }

  #onClosed(client: Client): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    this.status = "disconnected";
    this.error = "the connection closed (the server exited or dropped it)";
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const t = this.#o.timing;
    if (this.#closed || this.#timer || this.#attempts >= t.maxReconnects) return;
    const delay = backoffDelay(this.#attempts, t);
    this.#attempts++;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.connect();
    }, delay);
  }

  #apply(list: McpTool[]): void {
    const wanted = new Map<string, McpTool>();
    this.warnings = [];
    for (const tool of list) {
      const name = exposedName(this.name, tool.name);
      if (wanted.has(name)) {
        this.warnings.push(
          `tool ${tool.name} maps to ${name}, already taken by ${wanted.get(name)!.name}; skipped`,
        );
        continue;
      }
      const owner = this.#registry.sourceOf(name);
      if (owner && !(owner.kind === "mcp" && owner.origin === this.name)) {
        this.warnings.push(
          `tool ${tool.name} maps to ${name}, already registered by ${owner.origin}; skipped`,
        );
        continue;
      }
      wanted.set(name, tool);
    }
    for (const name of [...this.tools.keys()]) {
      if (!wanted.has(name)) {
        this.#registry.unregister(name);
        this.tools.delete(name);
        this.#defs.delete(name);
      }
    }
    for (const [name, tool] of wanted) {
      const def = JSON.stringify(tool);
      if (this.#defs.get(name) === def) continue;
      if (this.tools.has(name)) this.#registry.unregister(name);
      const callTimeoutMs = (this.config.call_timeout_s ?? 120) * 1000;
      this.#registry.register(
        defineRawTool({
          name,
          description: describe(this.name, tool),
          inputSchema: tool.inputSchema as Record<string, unknown>,
          approval: approvalFor(tool),
          concurrencySafe: tool.annotations?.readOnlyHint === true,
          timeoutMs: callTimeoutMs + 1000,
          handler: (args, ctx) =>
            this.call(tool.name, args, { signal: ctx.signal, timeoutMs: callTimeoutMs }),
        }),
        { kind: "mcp", origin: this.name },
      );
      this.tools.set(name, tool.name);
      this.#defs.set(name, def);
    }
    this.#o.onToolsChanged?.(this.name);
  }

  /** Call a tool; fails fast when disconnected or while the circuit breaker is open. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolResult> {
    const client = this.#client;
    if (!client || this.status !== "connected") {
      return {
        ok: false,
        error: `MCP server '${this.name}' is not connected${this.error ? ` (${this.error})` : ""}`,
      };
    }
    const t = this.#o.timing;
    if (this.#failures >= t.breakerThreshold) {
      const wait = t.breakerCooldownMs - (Date.now() - this.#openedAt);
      if (wait > 0 || this.#trial) {
        return {
          ok: false,
          error: `MCP server '${this.name}' is unavailable: ${this.#failures} calls failed in a row; ` +
            `next try in ${Math.max(1, Math.ceil(wait / 1000))} s`,
        };
      }
      this.#trial = true;
    }
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
      });
      this.#failures = 0;
      return convertResult(result as Parameters<typeof convertResult>[0]);
    } catch (err) {
      if (opts.signal.aborted) return { ok: false, error: "Aborted by the user" };
      this.#failures++;
      if (this.#failures >= t.breakerThreshold) this.#openedAt = Date.now();
      return { ok: false, error: `MCP server '${this.name}': ${oneLine(errorMessage(err))}` };
    } finally {
      this.#trial = false;
    }
  }

  /** Disconnect for good: stop reconnecting, close the client, remove the server's tools. */
  async close(opts: { keepTools?: boolean } = {}): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const client = this.#client;
    this.#client = undefined;
    await closeQuickly(client, this.#pid?.());
    if (!opts.keepTools) {
      for (const name of this.tools.keys()) this.#registry.unregister(name);
      this.tools.clear();
      this.#defs.clear();
    }
    if (this.status !== "disabled") this.status = "disconnected";
  }
}

/** Close a client; a stdio server that has not exited 50 ms after its stdin closed gets SIGTERM. */
/** Delay before reconnect attempt `attempt` (from 0): exponential, capped, with jitter in [50%, 100%]. */
export function backoffDelay(
  attempt: number,
  timing: Pick<McpTiming, "reconnectBaseMs" | "reconnectMaxMs">,
  random: () => number = Math.random,
): number {
  return Math.min(timing.reconnectMaxMs, timing.reconnectBaseMs * 2 ** attempt) * (0.5 + random() / 2);
}

const STDIO_EXIT_GRACE_MS = 50;

async function closeQuickly(client: Client | undefined, pid: number | null | undefined): Promise<void> {
  if (!client) return;
  const timer = pid
    ? setTimeout(() => {
      try {
        Deno.kill(pid, "SIGTERM");
      } catch { /* already gone */ }
    }, STDIO_EXIT_GRACE_MS)
    : undefined;
  await client.close().catch(() => {});
  clearTimeout(timer);
}

async function listAll(client: Client, timeout: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}
