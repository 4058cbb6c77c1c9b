import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpServerConfig } from "../config.ts";
import type { ToolRegistry } from "../registry.ts";
import type { Redactor } from "../secrets.ts";
import { errorMessage } from "../tool_result.ts";
import type { ToolProgress, ToolResult } from "../tool_types.ts";
import { CircuitBreaker } from "./breaker.ts";
import { McpToolBridge } from "./bridge.ts";
import { convertResult } from "./convert.ts";
import { type McpTiming, Reconnector } from "./reconnect.ts";
import { Client, ElicitRequestSchema, ListRootsRequestSchema, type McpTool } from "./sdk.ts";
import { createTransport } from "./transport.ts";

/** An elicitation request from a server; the answer follows the MCP ElicitResult shape. */
export type Elicit = (req: { server: string; message: string; schema: unknown }) => Promise<{
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}>;

/** What every connection of one navi process shares. */
export interface ConnectionOptions {
  /** navi's home directory. */
  home: string;
  /** The workspace root, offered to servers as their only root. */
  workspace: string;
  /** navi's version, sent to servers as the client version. */
  version: string;
  /** The process environment: `$VAR` references, and what stdio servers inherit (see STDIO_PASS_THROUGH). */
  env: { get(key: string): string | undefined; toObject(): Record<string, string> };
  /** Reconnect and circuit-breaker timing. */
  timing: McpTiming;
  /** Answers servers' elicitation requests; without it they are declined. */
  elicit?: Elicit;
  /** Redacts secrets from what is logged of a server (its stderr). */
  secrets?: Redactor;
}

/** Where a server stands. */
export type McpStatus = "connecting" | "connected" | "failed" | "disconnected" | "disabled";

/**
 * One configured MCP server: the SDK client (roots, elicitation), connect with a time limit, calls through
 * the circuit breaker, reconnects with backoff, and the end of the server process at close.
 */
export class McpConnection {
  /** The server's name: its key in `mcp_servers`. */
  readonly name: string;
  /** The server's entry in `mcp_servers`. */
  readonly config: McpServerConfig;
  /** Where the server stands now. */
  status: McpStatus = "disconnected";
  /** Why the last connect failed or the connection closed; cleared by a successful connect. */
  error?: string;
  #opts: ConnectionOptions;
  #bridge: McpToolBridge;
  #breaker: CircuitBreaker;
  #reconnect: Reconnector;
  #client?: Client;
  #pid?: () => number | null | undefined;
  #closed = false;

  /** Set up server `opts.name` from `opts.config`; its tools go into `registry` once `connect` succeeds. */
  constructor(registry: ToolRegistry, opts: ConnectionOptions & { name: string; config: McpServerConfig }) {
    this.name = opts.name;
    this.config = opts.config;
    this.#opts = opts;
    this.#bridge = new McpToolBridge(registry, {
      server: opts.name,
      callTimeoutMs: (opts.config.call_timeout_s ?? 120) * 1000,
      call: (tool, args, o) => this.call(tool, args, o),
    });
    this.#breaker = new CircuitBreaker({
      threshold: opts.timing.breakerThreshold,
      cooldownMs: opts.timing.breakerCooldownMs,
    });
    this.#reconnect = new Reconnector(opts.timing, () => void this.connect());
    if (opts.config.enabled === false) this.status = "disabled";
  }

  /** Exposed navi name -> the server's tool name. */
  get tools(): ReadonlyMap<string, string> {
    return this.#bridge.tools;
  }

  /** Tools skipped at the last listing (name collisions). */
  get warnings(): string[] {
    return this.#bridge.warnings;
  }

  /** How the server is reached. */
  get transportKind(): "stdio" | "http" {
    return this.config.url ? "http" : "stdio";
  }

  /** Connect (bounded by connect_timeout_s) and register the server's tools. Never throws. */
  async connect(): Promise<void> {
    if (this.#closed || this.status === "disabled") return;
    this.status = "connecting";
    const timeoutMs = (this.config.connect_timeout_s ?? 30) * 1000;
    const client = this.#newClient();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const { transport, pid } = createTransport(this.name, this.config, this.#opts);
      this.#pid = pid;
      this.#client = client;
      client.onclose = () => this.#onClosed(client);
      await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: timeoutMs });
          this.#bridge.apply(await listAll(client, timeoutMs));
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
        }),
      ]);
      if (this.#client !== client) return;
      this.status = "connected";
      this.error = undefined;
      this.#reconnect.reset();
      this.#breaker.reset();
    } catch (err) {
      if (this.#client === client) this.#client = undefined;
      await closeQuickly(client, this.#pid?.());
      if (this.#closed) return;
      this.status = "failed";
      this.error = oneLine(errorMessage(err));
      this.#reconnect.schedule();
    } finally {
      clearTimeout(timer);
    }
  }

  #newClient(): Client {
    const client = new Client({ name: "navi", version: this.#opts.version }, {
      capabilities: { roots: { listChanged: false }, elicitation: {} },
      listChanged: {
        tools: {
          onChanged: (err, tools) => {
            if (!err && tools && this.#client === client) this.#bridge.apply(tools);
          },
        },
      },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(this.#opts.workspace).href, name: basename(this.#opts.workspace) }],
    }));
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      if (!this.#opts.elicit) return { action: "decline" };
      const p = req.params as { message: string; requestedSchema?: unknown };
      return await this.#opts.elicit({ server: this.name, message: p.message, schema: p.requestedSchema });
    });
    return client;
  }

  #onClosed(client: Client): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    this.status = "disconnected";
    this.error = "the connection closed (the server exited or dropped it)";
    this.#reconnect.schedule();
  }

  /** Call a tool; fails fast when disconnected or while the circuit breaker is open. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number; onProgress?: (p: ToolProgress) => void },
  ): Promise<ToolResult> {
    const client = this.#client;
    if (!client || this.status !== "connected") {
      return {
        ok: false,
        error: `MCP server '${this.name}' is not connected${this.error ? ` (${this.error})` : ""}`,
      };
    }
    const open = this.#breaker.admit();
    if (open) {
      return {
        ok: false,
        error: `MCP server '${this.name}' is unavailable: ${open.failures} calls failed in a row; ` +
          `next try in ${Math.max(1, Math.ceil(open.waitMs / 1000))} s`,
      };
    }
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
        ...(opts.onProgress ? { onprogress: opts.onProgress } : {}),
      });
      this.#breaker.succeeded();
      return convertResult(result as Parameters<typeof convertResult>[0]);
    } catch (err) {
      if (opts.signal.aborted) {
        this.#breaker.released();
        return { ok: false, error: "Aborted by the user" };
      }
      this.#breaker.failed();
      return { ok: false, error: `MCP server '${this.name}': ${oneLine(errorMessage(err))}` };
    }
  }

  /** Disconnect for good: stop reconnecting, close the client (ending a stdio server), remove the tools. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#reconnect.stop();
    const client = this.#client;
    this.#client = undefined;
    await closeQuickly(client, this.#pid?.());
    this.#bridge.clear();
    if (this.status !== "disabled") this.status = "disconnected";
  }
}

const STDIO_EXIT_GRACE_MS = 50;

/** Close a client; a stdio server that has not exited 50 ms after its stdin closed gets SIGTERM. */
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
