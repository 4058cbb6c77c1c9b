import { join } from "node:path";
import { type ApprovalMode, type Config } from "./config.ts";
import { ToolRegistry } from "./registry.ts";
import type { Tool } from "./tool.ts";
import { type PoolFilter, ToolPool } from "./tool_pool.ts";
import type { OpenAITool } from "./registry.ts";
import { PluginLoader, type PluginReport } from "./plugins.ts";
import { VERSION } from "./version.ts";
import { Secrets } from "./secrets.ts";
import type { McpManager } from "./mcp/manager.ts";
import type { Elicit } from "./mcp/connection.ts";

/** What every navi command starts from. */
export interface AppOptions {
  home: string;
  workspace: string;
  config: Config;
  builtins: Tool[];
  approvalMode?: ApprovalMode;
}

/** The objects one navi process works with: registry, tool pool and settings. Create as many as you like. */
export class NaviApp {
  readonly home: string;
  readonly workspace: string;
  readonly config: Config;
  readonly registry = new ToolRegistry();
  approvalMode: ApprovalMode;
  readonly plugins: PluginLoader;
  /** API keys and MCP header values from the config and environment; redacted from all output. */
  readonly secrets: Secrets;
  /** MCP connections; created by `startMcp` when servers are configured. */
  mcp?: McpManager;

  constructor(opts: AppOptions) {
    this.home = opts.home;
    this.workspace = opts.workspace;
    this.config = opts.config;
    this.approvalMode = opts.approvalMode ?? opts.config.approval?.mode ?? "ask";
    this.secrets = Secrets.fromConfig(opts.config, Deno.env);
    for (const tool of opts.builtins) this.registry.register(tool);
    this.plugins = new PluginLoader(this.registry, {
      home: this.home,
      workspace: this.workspace,
      version: VERSION,
      config: this.config.plugins,
      log: (line) => this.#log("plugins.log", line),
    });
  }

  /** Load (or reload) the plugin directory; returns one report per file. */
  loadPlugins(): Promise<PluginReport[]> {
    return this.plugins.load();
  }

  #log(file: string, line: string): void {
    try {
      const dir = join(this.home, "logs");
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(join(dir, file), `${new Date().toISOString()} ${this.secrets.redact(line)}\n`, {
        append: true,
      });
    } catch { /* a log line must never break navi */ }
  }

  /** The filter the tool pool applies now. */
  poolFilter(): PoolFilter {
    return { readOnly: this.approvalMode === "plan", features: this.config.features ?? {} };
  }

  /** A tool pool for one conversation, optionally continuing a persisted list. */
  createPool(previous?: readonly OpenAITool[]): ToolPool {
    return new ToolPool(this.registry, { filter: this.poolFilter(), previous });
  }

  /**
   * Connect the configured MCP servers in the background (`wait: false`, the REPL) or wait until each
   * has connected or failed (`wait: true`, one-shot commands). Imports the MCP SDK only when needed.
   */
  async startMcp(
    opts: { wait: boolean; elicit?: Elicit; onToolsChanged?(server: string): void },
  ): Promise<void> {
    const servers = this.config.mcp_servers ?? {};
    if (!Object.keys(servers).length) return;
    const { McpManager } = await import("./mcp/manager.ts");
    this.mcp ??= new McpManager(this.registry, servers, {
      home: this.home,
      workspace: this.workspace,
      version: VERSION,
      env: Deno.env,
      elicit: opts.elicit,
      onToolsChanged: opts.onToolsChanged,
    });
    const started = this.mcp.start();
    if (opts.wait) await started;
  }

  /** Close MCP connections (ends stdio server processes). */
  async close(): Promise<void> {
    await this.mcp?.close();
  }
}
