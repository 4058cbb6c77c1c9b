// The MCP layer as the rest of navi sees it: one object per app; the SDK and connections load on demand.
import type { Config, McpServerConfig } from "../config/mod.ts";
import type { MentionProvider } from "../mentions/mod.ts";
import type { Env, Secrets } from "../output/mod.ts";
import type { ToolRegistry } from "../tool/mod.ts";
import type { StartupTrace } from "../trace/mod.ts";
import type { Catalog } from "./catalog.ts";
import type { Elicit } from "./client.ts";
import type { McpManager, McpServerState } from "./manager.ts";
import { mentionCandidates, resourceText } from "./mentions.ts";
import type { OpenUrl } from "./oauth_provider.ts";
import { type PromptCommand, promptCommands, promptText } from "./prompts.ts";
import { prespawnStdioServers } from "./prespawn.ts";
import type { StdioProcess } from "./stdio_process.ts";

/** Stdio servers started before the app was built, by server name (see `McpService.startEarly`). */
export type EarlyServers = Map<string, StdioProcess>;

/** What an McpService works with. */
export interface McpServiceOptions {
  /** Where the servers' tools are registered. */
  registry: ToolRegistry;
  /** navi's home (config.json, auth/, logs/). */
  home: string;
  /** The workspace root (a stdio server's default cwd). */
  workspace: string;
  /** The servers of config.json. */
  servers: Config["mcp_servers"];
  /** navi's environment (header and env `$VAR` values are read from it). */
  env: Env;
  /** Redacts known secrets; header and env values are added to it. */
  secrets: Secrets;
  /** navi's version (the client's name in `initialize`). */
  version: string;
  /** Stdio servers started early, adopted by their connections when the config still describes them. */
  early?: EarlyServers;
  /** Reads the config `reload` applies (default: `$NAVI_HOME/config.json`; the app merges a project in). */
  loadConfig?: () => Promise<Config>;
}

/** How long a model request waits for MCP tool-list refreshes a server already announced. */
const SETTLE_MS = 2000;

/**
 * Every MCP server of one app: the early start of stdio servers, connecting, catalogs (resources, templates,
 * prompts), OAuth login and logout, reload from config.json and one mention provider for `@server:uri`.
 * Nothing of the SDK is loaded until a server is configured and started.
 */
export class McpService {
  #opts: McpServiceOptions;
  #servers: Record<string, McpServerConfig>;
  #manager?: McpManager;
  #early?: EarlyServers;
  #elicit?: Elicit;

  /**
   * Start the enabled stdio servers of `$NAVI_HOME/config.json` at once, before anything else loads, so that
   * their own start-up overlaps navi's; the service built later adopts them. Never throws.
   */
  static startEarly(
    opts: { home: string; workspace: string; env: Env; trace?: StartupTrace },
  ): EarlyServers {
    return prespawnStdioServers(opts);
  }

  /** Prepare the servers of `opts.servers`; nothing connects before `start`. */
  constructor(opts: McpServiceOptions) {
    this.#opts = opts;
    this.#servers = opts.servers ?? {};
    this.#early = opts.early;
  }

  /** Whether any server is configured. */
  get configured(): boolean {
    return Object.keys(this.#servers).length > 0;
  }

  /**
   * Connect the configured servers concurrently; settles when each has connected or failed (one-shot
   * commands await it, the REPL lets it run in the background). `elicit` answers servers' form requests.
   */
  async start(opts: { elicit?: Elicit } = {}): Promise<void> {
    if (opts.elicit) this.#elicit = opts.elicit;
    await (await this.#load())?.start();
  }

  async #load(opts: { openUrl?: OpenUrl } = {}): Promise<McpManager | undefined> {
    if (!this.#manager && !this.configured) return undefined;
    if (!this.#manager) {
      const { McpManager } = await import("./manager.ts");
      const { registry, home, workspace, env, secrets, version } = this.#opts;
      this.#manager ??= new McpManager(registry, this.#servers, {
        home,
        workspace,
        version,
        env,
        elicit: this.#elicit,
        secrets,
        openUrl: opts.openUrl,
        onSecret: (value) => secrets.add(value),
        prespawned: this.#early,
      });
      this.#early = undefined;
    }
    return this.#manager;
  }

  /** Wait (at most 2 s) for tool-list refreshes servers already announced; called before each request. */
  async settle(): Promise<void> {
    await this.#manager?.settled(SETTLE_MS);
  }

  /** Status rows of the configured servers (empty before `start`). */
  states(): McpServerState[] {
    return this.#manager?.states() ?? [];
  }

  /** Each connected server's resources, templates and prompts. */
  async catalogs(): Promise<Map<string, Catalog>> {
    return (await this.#manager?.catalogs()) ?? new Map();
  }

  /**
   * Log in to server `name` with OAuth: `openUrl` shows the authorization URL; the server is connected once
   * the tokens are stored. Throws with a one-line reason.
   */
  async login(name: string, opts: { openUrl: OpenUrl; timeoutMs?: number }): Promise<void> {
    const manager = await this.#load();
    if (!manager) throw new Error(`no MCP server named ${name} in config.json`);
    await manager.login(name, opts);
  }

  /** Forget the stored OAuth login of server `name`; returns whether there was one. */
  async logout(name: string): Promise<boolean> {
    const { TokenStore } = await import("./oauth_store.ts");
    return await new TokenStore(this.#opts.home, { name, url: "" }).remove();
  }

  /** Read config.json again and reconnect every server from it; new header and env secrets are redacted. */
  async reload(): Promise<void> {
    const { loadConfig } = await import("../config/mod.ts");
    const config = await (this.#opts.loadConfig?.() ?? loadConfig(this.#opts.home));
    this.#opts.secrets.addConfig(config, this.#opts.env);
    this.#servers = config.mcp_servers ?? {};
    if (this.#manager) await this.#manager.reload(this.#servers);
    else await this.start();
  }

  /** Every MCP prompt as a `/mcp:<server>:<prompt>` command row. */
  async promptCommands(): Promise<PromptCommand[]> {
    return promptCommands(await this.catalogs());
  }

  /** Expand an MCP prompt with `args` into the text of a user message. */
  async runPrompt(cmd: PromptCommand, args: Record<string, string>): Promise<string> {
    if (!this.#manager) throw new Error(`MCP server ${cmd.server} is not connected`);
    return promptText(await this.#manager.require(cmd.server).getPrompt(cmd.prompt, args));
  }

  /**
   * MCP resources as `@<server>:<uri>` mentions: completions from the servers' resource lists and templates;
   * a mention attaches the resource's contents. Tokens that do not name a configured server are left to others.
   */
  mentions(): MentionProvider {
    const server = (token: string) => {
      const name = /^([A-Za-z0-9_-]+):/.exec(token)?.[1];
      return name && this.states().some((s) => s.name === name) ? name : undefined;
    };
    return {
      accepts: (token) => server(token) !== undefined,
      complete: async (partial) =>
        mentionCandidates(await this.catalogs()).map((m) => m.slice(1)).filter((m) => m.startsWith(partial)),
      expand: async (token) => {
        const name = server(token)!;
        const uri = token.slice(name.length + 1);
        const body = await this.#read(name, uri).catch((err: Error) => {
          throw new Error(`@${token}: ${err.message.replace(/\s+/g, " ").slice(0, 200)}`);
        });
        return {
          label: `${token} (${body.length} chars)`,
          text: `<resource server="${name}" uri="${uri}">\n${body}\n</resource>`,
        };
      },
    };
  }

  async #read(server: string, uri: string): Promise<string> {
    if (!this.#manager) throw new Error(`MCP server ${server} is not connected`);
    return resourceText(await this.#manager.require(server).readResource(uri));
  }

  /** Close every connection (ends stdio server processes) and servers started early but never adopted. */
  async close(): Promise<void> {
    await this.#manager?.close();
    await Promise.all([...(this.#early?.values() ?? [])].map((p) => p.stop()));
    this.#early = undefined;
  }
}
