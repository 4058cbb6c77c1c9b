import { type ApprovalMode, type Config } from "./config.ts";
import { ToolRegistry } from "./registry.ts";
import type { Tool } from "./tool.ts";
import { type PoolFilter, ToolPool } from "./tool_pool.ts";
import type { OpenAITool } from "./registry.ts";
import { PluginLoader, type PluginReport } from "./plugins.ts";
import { VERSION } from "./version.ts";

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

  constructor(opts: AppOptions) {
    this.home = opts.home;
    this.workspace = opts.workspace;
    this.config = opts.config;
    this.approvalMode = opts.approvalMode ?? opts.config.approval?.mode ?? "ask";
    for (const tool of opts.builtins) this.registry.register(tool);
    this.plugins = new PluginLoader(this.registry, {
      home: this.home,
      workspace: this.workspace,
      version: VERSION,
      config: this.config.plugins,
    });
  }

  /** Load (or reload) the plugin directory; returns one report per file. */
  loadPlugins(): Promise<PluginReport[]> {
    return this.plugins.load();
  }

  /** The filter the tool pool applies now. */
  poolFilter(): PoolFilter {
    return { readOnly: this.approvalMode === "plan", features: this.config.features ?? {} };
  }

  /** A tool pool for one conversation, optionally continuing a persisted list. */
  createPool(previous?: readonly OpenAITool[]): ToolPool {
    return new ToolPool(this.registry, this.poolFilter(), previous);
  }
}
