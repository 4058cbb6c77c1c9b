import type { McpServerConfig } from "../config/mod.ts";
import { errorMessage, type ToolRegistry, type ToolResult } from "../tool/mod.ts";
import { CircuitBreaker } from "./breaker.ts";
import { type McpCallOptions, McpToolBridge } from "./bridge.ts";
import { type Catalog, EMPTY_CATALOG, fetchCatalog } from "./catalog.ts";
import { newClient } from "./client.ts";
import { ListRefresher } from "./list_refresh.ts";
import { LoginRequiredError, NaviOAuthProvider, type OpenUrl } from "./oauth_provider.ts";
import { Reconnector } from "./reconnect.ts";
import {
  type Client,
  type GetPromptResult,
  type McpTool,
  type ReadResourceResult,
  type StreamableHTTPClientTransport,
  UnauthorizedError,
} from "./sdk.ts";
import type { StdioProcess } from "./stdio_process.ts";
import { ProcessTransport } from "./stdio_transport.ts";
import { callTool, listAll, oneLine, withDeadline } from "./client_util.ts";
import { type ConnectionOptions, LOGIN_TIMEOUT_MS, type McpStatus } from "./connection_options.ts";
import { hasStaticAuthorization, httpTransport, stdioTransport } from "./transport.ts";

/**
 * One configured MCP server: the SDK client, connect with a time limit (and OAuth for HTTP servers), calls
 * through the circuit breaker with progress-aware time limits, list-change refreshes, reconnects with backoff,
 * and the end of the server process at close.
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
  #tools: ListRefresher;
  #client?: Client;
  #http?: StreamableHTTPClientTransport;
  #proc?: StdioProcess;
  #auth?: NaviOAuthProvider;
  #catalog?: Promise<Catalog>;
  #closed = false;

  /** Set up server `opts.name` from `opts.config`; its tools go into `registry` once `connect` succeeds. */
  constructor(registry: ToolRegistry, opts: ConnectionOptions & { name: string; config: McpServerConfig }) {
    this.name = opts.name;
    this.config = opts.config;
    this.#opts = opts;
    this.#bridge = new McpToolBridge(registry, {
      server: opts.name,
      callTimeoutMs: (opts.config.call_timeout_s ?? 120) * 1000,
      maxCallMs: (opts.config.max_call_s ?? 1800) * 1000,
      call: (tool, args, o) => this.call(tool, args, o),
      claims: opts.claims,
    });
    const clock = opts.clock;
    this.#breaker = new CircuitBreaker({
      threshold: opts.timing.breakerThreshold,
      cooldownMs: opts.timing.breakerCooldownMs,
      now: clock && (() => clock.now()),
    });
    this.#reconnect = new Reconnector(opts.timing, () => void this.connect(), clock);
    this.#tools = new ListRefresher(async () => {
      const client = this.#client;
      if (client) this.#apply(client, await listAll(client, this.#connectTimeoutMs));
    });
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

  get #connectTimeoutMs(): number {
    return (this.config.connect_timeout_s ?? 30) * 1000;
  }

  /** Connect (bounded by connect_timeout_s) and register the server's tools. Never throws. */
  async connect(): Promise<void> {
    if (this.#closed || this.status === "disabled") return;
    this.status = "connecting";
    try {
      await this.#establish(this.#authProvider(this.#opts.openUrl ? { openUrl: this.#opts.openUrl } : {}));
      this.status = "connected";
      this.error = undefined;
      this.#reconnect.reset();
      this.#breaker.reset();
    } catch (err) {
      if (this.#closed) return;
      this.status = "failed";
      this.error = this.#explain(err);
      if (!(err instanceof LoginRequiredError)) this.#reconnect.schedule();
    }
  }

  /**
   * Log in to a Streamable HTTP server with OAuth: `openUrl` opens the authorization URL, the redirect comes
   * back to a loopback listener, tokens are stored; then the server is connected. Throws when it fails.
   */
  async login(opts: { openUrl: OpenUrl; timeoutMs?: number }): Promise<void> {
    if (!this.config.url) throw new Error(`${this.name} is a stdio server; only url servers log in`);
    if (hasStaticAuthorization(this.config)) {
      throw new Error(`${this.name} sends its own Authorization header (config.json headers)`);
    }
    await this.#drop();
    this.#closed = false;
    this.#reconnect.reset();
    this.status = "connecting";
    const auth = this.#authProvider({ openUrl: opts.openUrl, timeoutMs: opts.timeoutMs, forceLogin: true })!;
    try {
      await this.#establish(auth);
    } catch (err) {
      this.status = "failed";
      this.error = this.#explain(err);
      throw new Error(this.error);
    } finally {
      await auth.endLogin();
    }
    this.status = "connected";
    this.error = undefined;
  }

  /** Wait (at most `timeoutMs`) for tool-list refreshes already triggered by notifications. */
  settled(timeoutMs: number): Promise<void> {
    return this.#tools.settled(timeoutMs);
  }

  /** The server's resources, templates and prompts (listed once, again after a list-change notification). */
  catalog(): Promise<Catalog> {
    const client = this.#client;
    if (!client || this.status !== "connected") return Promise.resolve(EMPTY_CATALOG);
    this.#catalog ??= fetchCatalog(client, this.#connectTimeoutMs).catch(() => {
      this.#catalog = undefined;
      return EMPTY_CATALOG;
    });
    return this.#catalog;
  }

  /** Read one resource (`resources/read`). */
  readResource(uri: string): Promise<ReadResourceResult> {
    return this.#connected().readResource({ uri }, { timeout: this.#connectTimeoutMs });
  }

  /** Expand one prompt (`prompts/get`). */
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.#connected().getPrompt({ name, arguments: args }, { timeout: this.#connectTimeoutMs });
  }

  /** Call a tool; fails fast when disconnected or while the circuit breaker is open. */
  call(tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<ToolResult> {
    const client = this.status === "connected" ? this.#client : undefined;
    return callTool({
      server: this.name,
      client,
      why: this.error,
      breaker: this.#breaker,
      explain: (err) => this.#explain(err),
      reauthorize: async (err) => {
        if (!(err instanceof UnauthorizedError) || !this.#auth?.pending || !this.#http) return false;
        await this.#http.finishAuth(await this.#auth.authorizationCode());
        return true;
      },
    }, { tool, args, ...opts });
  }

  /** Disconnect for good: stop reconnecting, close the client (ending a stdio server), remove the tools. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#reconnect.stop();
    await this.#drop();
    this.#bridge.clear();
    if (this.status !== "disabled") this.status = "disconnected";
  }

  /** Connect, list tools; a browser step that ran is completed and the connect tried again (twice at most). */
  async #establish(auth: NaviOAuthProvider | undefined): Promise<void> {
    for (let attempt = 0;; attempt++) {
      await this.#drop();
      this.#auth = auth;
      const client = newClient({
        server: this.name,
        version: this.#opts.version,
        workspace: this.#opts.workspace,
        elicit: this.#opts.elicit,
        toolsChanged: () => this.#client === client && this.#tools.trigger(),
        catalogChanged: () => this.#client === client && (this.#catalog = undefined),
      });
      const transport = this.config.url
        ? (this.#http = httpTransport(this.config, { env: this.#opts.env, auth }))
        : stdioTransport(this.name, this.config, {
          ...this.#opts,
          early: this.#opts.takeProcess?.(this.name),
        });
      if (transport instanceof ProcessTransport) this.#proc = transport.process;
      this.#client = client;
      client.onclose = () => this.#onClosed(client);
      try {
        await withDeadline(this.#connectTimeoutMs, async () => {
          await client.connect(transport, { timeout: this.#connectTimeoutMs });
          this.#apply(client, await listAll(client, this.#connectTimeoutMs));
        });
        return;
      } catch (err) {
        if (err instanceof UnauthorizedError && auth?.pending && attempt < 2 && this.#http) {
          await this.#http.finishAuth(await auth.authorizationCode());
          continue;
        }
        await this.#drop();
        throw err;
      }
    }
  }

  #apply(client: Client, tools: McpTool[]): void {
    if (this.#client === client) this.#bridge.apply(tools);
  }

  #authProvider(
    interactive: { openUrl?: OpenUrl; timeoutMs?: number; forceLogin?: boolean },
  ): NaviOAuthProvider | undefined {
    if (!this.config.url || hasStaticAuthorization(this.config)) return undefined;
    const { openUrl, timeoutMs, forceLogin } = interactive;
    return new NaviOAuthProvider({
      server: this.name,
      url: this.config.url,
      home: this.#opts.home,
      config: this.config.oauth,
      env: this.#opts.env,
      onSecret: this.#opts.onSecret,
      clock: this.#opts.clock,
      ...(openUrl
        ? {
          interactive: {
            openUrl,
            timeoutMs: timeoutMs ?? this.#opts.loginTimeoutMs ?? LOGIN_TIMEOUT_MS,
            forceLogin,
          },
        }
        : {}),
    });
  }

  #connected(): Client {
    if (!this.#client || this.status !== "connected") {
      throw new Error(`MCP server '${this.name}' is not connected${this.error ? ` (${this.error})` : ""}`);
    }
    return this.#client;
  }

  /** One line: the error, and for a stdio server its last stderr line and where its log is. */
  #explain(err: unknown): string {
    const text = oneLine(errorMessage(err));
    if (err instanceof LoginRequiredError || !this.#proc) return text;
    const last = this.#proc.lastLine();
    return `${text}${
      last ? `; the server said: ${oneLine(last).slice(0, 160)}` : ""
    } (log: ${this.#proc.log})`;
  }

  async #drop(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#http = undefined;
    this.#catalog = undefined;
    await client?.close().catch(() => {});
    await this.#proc?.stop();
  }

  #onClosed(client: Client): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    this.status = "disconnected";
    const closed = new Error("the connection closed (the server exited or dropped it)");
    this.error = this.#explain(closed);
    const proc = this.#proc;
    proc?.stop().then(() => {
      if (this.status === "disconnected" && this.#proc === proc) this.error = this.#explain(closed);
    });
    this.#reconnect.schedule();
  }
}
