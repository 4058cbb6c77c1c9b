import type { McpServerConfig } from "../config.ts";
import type { ToolRegistry } from "../registry.ts";
import { type ConnectionOptions, McpConnection } from "./connection.ts";
import { DEFAULT_TIMING, type McpTiming } from "./reconnect.ts";

/** One row of `navi mcp list` and `/mcp status`. */
export interface McpServerState {
  /** The server's name. */
  name: string;
  /** How the server is reached. */
  transport: "stdio" | "http";
  /** Where it stands (an McpStatus). */
  status: string;
  /** How many of its tools are registered. */
  tools: number;
  /** Why it failed or disconnected. */
  error?: string;
  /** Tools skipped at the last listing (name collisions). */
  warnings: string[];
}

/** What the manager needs; `timing` overrides parts of the default reconnect and breaker timing. */
export type McpManagerOptions = Omit<ConnectionOptions, "timing"> & { timing?: Partial<McpTiming> };

/** Owns every MCP connection of one navi process. Create as many as you like. */
export class McpManager {
  #registry: ToolRegistry;
  #opts: ConnectionOptions;
  #conns = new Map<string, McpConnection>();
  #started?: Promise<void>;

  /** One connection per entry of `servers`, none connected before `start`; tools go into `registry`. */
  constructor(registry: ToolRegistry, servers: Record<string, McpServerConfig>, opts: McpManagerOptions) {
    this.#registry = registry;
    this.#opts = { ...opts, timing: { ...DEFAULT_TIMING, ...opts.timing } };
    this.#setServers(servers);
  }

  #setServers(servers: Record<string, McpServerConfig>): void {
    for (const [name, config] of Object.entries(servers)) {
      this.#conns.set(name, new McpConnection(this.#registry, { ...this.#opts, name, config }));
    }
  }

  /** Connect every enabled server concurrently; the promise settles when each has connected or failed. */
  start(): Promise<void> {
    this.#started ??= Promise.all([...this.#conns.values()].map((c) => c.connect())).then(() => {});
    return this.#started;
  }

  /** The connection of one server. */
  get(name: string): McpConnection | undefined {
    return this.#conns.get(name);
  }

  /** Status rows, by server name. */
  states(): McpServerState[] {
    return [...this.#conns.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((c) => ({
      name: c.name,
      transport: c.transportKind,
      status: c.status,
      tools: c.tools.size,
      ...(c.error ? { error: c.error } : {}),
      warnings: c.warnings,
    }));
  }

  /** Close everything and connect again from `servers` (the current config). */
  async reload(servers: Record<string, McpServerConfig>): Promise<void> {
    await this.close();
    this.#conns.clear();
    this.#started = undefined;
    this.#setServers(servers);
    await this.start();
  }

  /** Close every connection and remove their tools. */
  async close(): Promise<void> {
    await Promise.all([...this.#conns.values()].map((c) => c.close()));
  }
}
