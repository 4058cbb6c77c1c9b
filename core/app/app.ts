import { join } from "node:path";
import { type Config, loadConfig } from "../config.ts";
import type { Catalog } from "../mcp/catalog.ts";
import type { Elicit, McpManager, McpServerState } from "../mcp/mod.ts";
import type { ExpandedMessage } from "../mcp/mentions.ts";
import type { OpenUrl } from "../mcp/oauth_provider.ts";
import type { PromptCommand } from "../mcp/prompts.ts";
import type { StdioProcess } from "../mcp/stdio_process.ts";
import { PluginLoader, type PluginReport } from "../plugins/loader.ts";
import { type OpenAITool, ToolRegistry } from "../tool/registry.ts";
import { Sandbox } from "../sandbox/mod.ts";
import { Secrets } from "../output/secrets.ts";
import { ToolPool } from "../toollist/pool.ts";
import type { Tool } from "../tool/types.ts";
import { VERSION } from "../version.ts";

/** What every navi command starts from. */
export interface AppOptions {
  /** navi's home directory ($NAVI_HOME or ~/.navi): config, sessions, plugins, logs. */
  home: string;
  /** The workspace root (absolute) tools work in. */
  workspace: string;
  /** config.json as read at start-up; navi never writes into it (commands edit the file). */
  config: Config;
  /** The built-in tools, registered first. */
  builtins: Tool[];
  /** Stdio servers started before the app was built (see `prespawnStdioServers`), by server name. */
  prespawned?: Map<string, StdioProcess>;
}

/** How long a model request waits for MCP tool-list refreshes a server already announced. */
const SETTLE_MS = 2000;

/** The objects one navi process works with: registry, plugins, MCP servers, secrets. Create as many as you like. */
export class NaviApp {
  /** navi's home directory. */
  readonly home: string;
  /** The workspace root (absolute). */
  readonly workspace: string;
  /** config.json as read at start-up (`reloadMcp` reads it again for MCP servers only). */
  readonly config: Readonly<Config>;
  /** Every tool this process can run: built-ins, plugin tools and MCP tools. */
  readonly registry: ToolRegistry = new ToolRegistry();
  /** Loads the plugin directory into the registry (see `loadPlugins`); plugin tools run in workers. */
  readonly plugins: PluginLoader;
  /** API keys, MCP header and `$VAR` env values; redacted from all output and kept from child processes. */
  readonly secrets: Secrets;
  /** The OS sandbox bash commands run in (checked on first use; see `Sandbox.status`). */
  readonly sandbox: Sandbox;
  #mcp?: McpManager;
  #mcpServers: Config["mcp_servers"];
  #closers: (() => void)[] = [];
  #prespawned?: Map<string, StdioProcess>;

  /** Register the built-ins and prepare plugins and secrets; nothing is loaded or connected yet. */
  constructor(opts: AppOptions) {
    this.home = opts.home;
    this.workspace = opts.workspace;
    this.config = opts.config;
    this.#mcpServers = opts.config.mcp_servers;
    this.#prespawned = opts.prespawned;
    this.secrets = Secrets.fromConfig(opts.config, Deno.env);
    this.sandbox = new Sandbox({
      home: this.home,
      workspace: this.workspace,
      settings: opts.config.sandbox,
      env: Deno.env,
    });
    for (const tool of opts.builtins) this.registry.register(tool);
    this.plugins = new PluginLoader(this.registry, {
      home: this.home,
      workspace: this.workspace,
      version: VERSION,
      config: this.config.plugins,
      childEnv: () => this.secrets.childEnv(Deno.env),
      log: (line) => this.log("plugins.log", line),
    });
  }

  /** Load (or reload) the plugin directory; returns one report per file. */
  loadPlugins(): Promise<PluginReport[]> {
    return this.plugins.load();
  }

  /** Append a line (secrets redacted) to `$NAVI_HOME/logs/<file>`; never throws. */
  log(file: string, line: string): void {
    try {
      const dir = join(this.home, "logs");
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(join(dir, file), `${new Date().toISOString()} ${this.secrets.redact(line)}\n`, {
        append: true,
      });
    } catch { /* a log line must never break navi */ }
  }

  /** A tool pool for one conversation; `readOnly` is read at every sync (plan mode), `previous` resumes a list. */
  createPool(opts: { readOnly: () => boolean; previous?: readonly OpenAITool[] }): ToolPool {
    return new ToolPool(this.registry, { ...opts, features: this.config.features });
  }

  /**
   * Connect the configured MCP servers concurrently; settles when each has connected or failed (one-shot
   * commands await it, the REPL lets it run in the background). Imports the MCP SDK only when needed.
   */
  async startMcp(opts: { elicit?: Elicit } = {}): Promise<void> {
    await (await this.#manager(opts))?.start();
  }

  async #manager(opts: { elicit?: Elicit; openUrl?: OpenUrl } = {}): Promise<McpManager | undefined> {
    const servers = this.#mcpServers ?? {};
    if (!this.#mcp && !Object.keys(servers).length) return undefined;
    const { McpManager } = await import("../mcp/manager.ts");
    this.#mcp ??= new McpManager(this.registry, servers, {
      home: this.home,
      workspace: this.workspace,
      version: VERSION,
      env: Deno.env,
      elicit: opts.elicit,
      secrets: this.secrets,
      openUrl: opts.openUrl,
      onSecret: (value) => this.secrets.add(value),
      prespawned: this.#prespawned,
    });
    this.#prespawned = undefined;
    return this.#mcp;
  }

  /** Wait (at most 2 s) for tool-list refreshes MCP servers already announced; called before each request. */
  async settleMcp(): Promise<void> {
    await this.#mcp?.settled(SETTLE_MS);
  }

  /**
   * Log in to MCP server `name` with OAuth (`navi mcp login`, `/mcp login`): `openUrl` shows the
   * authorization URL; the server is connected once tokens are stored. Throws with a one-line reason.
   */
  async loginMcp(name: string, opts: { openUrl: OpenUrl; timeoutMs?: number }): Promise<void> {
    const manager = await this.#manager();
    if (!manager) throw new Error(`no MCP server named ${name} in config.json`);
    await manager.login(name, opts);
  }

  /** Forget the stored OAuth login of MCP server `name`; returns whether there was one. */
  async logoutMcp(name: string): Promise<boolean> {
    const { TokenStore } = await import("../mcp/oauth_store.ts");
    return await new TokenStore(this.home, { name, url: "" }).remove();
  }

  /** Each connected MCP server's resources, templates and prompts. */
  async mcpCatalogs(): Promise<Map<string, Catalog>> {
    return (await this.#mcp?.catalogs()) ?? new Map();
  }

  /** Attach the resources a message mentions as `@<server>:<uri>`. */
  async expandMentions(text: string): Promise<ExpandedMessage> {
    const { expandMentions } = await import("../mcp/mentions.ts");
    const mcp = this.#mcp;
    const servers = new Set(mcp ? mcp.states().map((s) => s.name) : []);
    return await expandMentions(text, {
      servers,
      read: (server, uri) => mcp!.require(server).readResource(uri),
    });
  }

  /** One resource as the `<resource>` block a mention attaches, and its length in characters. */
  async readResource(server: string, uri: string): Promise<{ text: string; chars: number }> {
    const { resourceText } = await import("../mcp/mentions.ts");
    if (!this.#mcp) throw new Error(`MCP server ${server} is not connected`);
    const body = resourceText(await this.#mcp.require(server).readResource(uri));
    return { text: `<resource server="${server}" uri="${uri}">\n${body}\n</resource>`, chars: body.length };
  }

  /** Every MCP prompt as a `/mcp:<server>:<prompt>` command row. */
  async mcpPromptCommands(): Promise<PromptCommand[]> {
    const { promptCommands } = await import("../mcp/prompts.ts");
    return promptCommands(await this.mcpCatalogs());
  }

  /** Expand an MCP prompt with `args` into the text of a user message. */
  async runMcpPrompt(cmd: PromptCommand, args: Record<string, string>): Promise<string> {
    const { promptText } = await import("../mcp/prompts.ts");
    if (!this.#mcp) throw new Error(`MCP server ${cmd.server} is not connected`);
    return promptText(await this.#mcp.require(cmd.server).getPrompt(cmd.prompt, args));
  }

  /** Status rows of the configured MCP servers (empty before `startMcp`). */
  mcpStates(): McpServerState[] {
    return this.#mcp?.states() ?? [];
  }

  /** Read config.json again and reconnect every MCP server from it; new header and env secrets are redacted. */
  async reloadMcp(opts: { elicit?: Elicit } = {}): Promise<void> {
    const config = await loadConfig(this.home);
    this.secrets.addConfig(config, Deno.env);
    this.#mcpServers = config.mcp_servers;
    if (this.#mcp) await this.#mcp.reload(config.mcp_servers ?? {});
    else await this.startMcp(opts);
  }

  /** Run `fn` at `close` (conversations release their sessions this way). */
  onClose(fn: () => void): void {
    this.#closers.push(fn);
  }

  /**
   * End plugin workers, close MCP connections (ends stdio server processes) and release open sessions. The
   * CLI program calls this once, at exit.
   */
  async close(): Promise<void> {
    await this.plugins.close();
    for (const fn of this.#closers.splice(0)) {
      try {
        fn();
      } catch { /* closing one thing must not keep the others open */ }
    }
    await this.#mcp?.close();
    await Promise.all([...(this.#prespawned?.values() ?? [])].map((p) => p.stop()));
    this.#prespawned = undefined;
  }
}
