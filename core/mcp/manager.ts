import type { McpServerConfig } from "../config/mod.ts";
import type { ToolRegistry } from "../tool/mod.ts";
import type { Catalog } from "./catalog.ts";
import { McpConnection } from "./connection.ts";
import type { ConnectionOptions } from "./connection_options.ts";
import { NameClaims } from "./names.ts";
import type { OpenUrl } from "./oauth_provider.ts";
import { DEFAULT_TIMING, type McpTiming } from "./reconnect.ts";
import type { StdioProcess } from "./stdio_process.ts";

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
  /** The exposed names of its registered tools. */
  toolNames: string[];
  /** Why it failed or disconnected. */
  error?: string;
  /** Tools skipped at the last listing (name collisions). */
  warnings: string[];
}

/** What the manager needs; `timing` overrides parts of the default reconnect and breaker timing. */
export type McpManagerOptions =
  & Omit<ConnectionOptions, "timing" | "takeProcess" | "claims">
  & { timing?: Partial<McpTiming>; prespawned?: Map<string, StdioProcess> };

/** Owns every MCP connection of one navi process. Create as many as you like. */
export class McpManager {
  #registry: ToolRegistry;
  #opts: ConnectionOptions;
  #conns = new Map<string, McpConnection>();
  #early: Map<string, StdioProcess>;
  #started?: Promise<void>;

  /** One connection per entry of `servers`, none connected before `start`; tools go into `registry`. */
  constructor(registry: ToolRegistry, servers: Record<string, McpServerConfig>, opts: McpManagerOptions) {
    this.#registry = registry;
    this.#early = opts.prespawned ?? new Map();
    this.#opts = {
      ...opts,
      timing: { ...DEFAULT_TIMING, ...opts.timing },
      takeProcess: (name) => {
        const proc = this.#early.get(name);
        this.#early.delete(name);
        return proc;
      },
    };
    this.#setServers(servers);
  }

  #setServers(servers: Record<string, McpServerConfig>): void {
    const claims = new NameClaims(Object.keys(servers));
    for (const [name, config] of Object.entries(servers)) {
      this.#conns.set(name, new McpConnection(this.#registry, { ...this.#opts, claims, name, config }));
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

  /** The connection of one server, or an error naming the configured ones. */
  require(name: string): McpConnection {
    const conn = this.#conns.get(name);
    if (conn) return conn;
    const known = [...this.#conns.keys()];
    throw new Error(`no MCP server named ${name}${known.length ? ` (configured: ${known.join(", ")})` : ""}`);
  }

  /** Status rows, by server name. */
  states(): McpServerState[] {
    return [...this.#conns.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((c) => ({
      name: c.name,
      transport: c.transportKind,
      status: c.status,
      tools: c.tools.size,
      toolNames: [...c.tools.keys()].sort(),
      ...(c.error ? { error: c.error } : {}),
      warnings: c.warnings,
    }));
  }

  /** Wait (at most `timeoutMs`) for every tool-list refresh already triggered by a server's notification. */
  async settled(timeoutMs: number): Promise<void> {
    await Promise.all([...this.#conns.values()].map((c) => c.settled(timeoutMs)));
  }

  /** Each connected server's resources, templates and prompts, by server name. */
  async catalogs(): Promise<Map<string, Catalog>> {
    const conns = [...this.#conns.values()].filter((c) => c.status === "connected");
    const lists = await Promise.all(conns.map((c) => c.catalog()));
    return new Map(conns.map((c, i) => [c.name, lists[i]]));
  }

  /** Log in to server `name` with OAuth (see `McpConnection.login`). */
  login(name: string, opts: { openUrl: OpenUrl; timeoutMs?: number }): Promise<void> {
    return this.require(name).login(opts);
  }

  /** Close everything and connect again from `servers` (the current config). */
  async reload(servers: Record<string, McpServerConfig>): Promise<void> {
    await this.close();
    this.#conns.clear();
    this.#started = undefined;
    this.#setServers(servers);
    await this.start();
  }

  /** Close every connection, remove their tools and end processes started early but never used. */
  async close(): Promise<void> {
    const early = [...this.#early.values()];
    this.#early.clear();
    await Promise.all([...[...this.#conns.values()].map((c) => c.close()), ...early.map((p) => p.stop())]);
  }
}
