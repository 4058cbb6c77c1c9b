import { join } from "node:path";
import { AgentCatalog, taskTool } from "../agents/mod.ts";
import type { Config } from "../config/mod.ts";
import { Extensions } from "../extensions/mod.ts";
import { type EarlyServers, McpService } from "../mcp/mod.ts";
import { Hooks, type LoadedHooks } from "../hooks/mod.ts";
import { fileMentions, type MentionProvider } from "../mentions/mod.ts";
import { type Env, escapeControls, Secrets } from "../output/mod.ts";
import { type PluginBundle, PluginLoader, type PluginReport } from "../plugins/mod.ts";
import { presetKeyRefs } from "../provider/mod.ts";
import type { Project } from "../project/mod.ts";
import { Sandbox } from "../sandbox/mod.ts";
import { type Tool, ToolRegistry } from "../tool/mod.ts";
import type { StartupTrace } from "../trace/mod.ts";
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
  /** navi's environment: secrets named by `$VAR` are read from it, child processes inherit it (minus secrets). */
  env: Env;
  /** Stdio MCP servers started before the app was built (see `McpService.startEarly`). */
  early?: EarlyServers;
  /** The project layer (`bootApp` reads it; `config` already has its settings merged in). */
  project?: Project;
  /** The custom commands and skills of the project layer's folders. */
  extensions?: Extensions;
  /** The agents the `task` tool starts (default: the built-ins). */
  agents?: AgentCatalog;
  /** The run's start-up trace (`NAVI_TRACE=startup`). */
  trace?: StartupTrace;
  /** The hooks read from the settings files (project ones run only when the project is trusted). */
  hooks?: LoadedHooks;
  /** The plugin bundles found (their commands, skills, hooks and servers are already in the layer). */
  bundles?: readonly PluginBundle[];
}

/** The objects one navi process works with: registry, plugins, MCP servers, secrets. Create as many as you like. */
export class NaviApp {
  /** navi's home directory. */
  readonly home: string;
  /** The workspace root (absolute). */
  readonly workspace: string;
  /** config.json as read at start-up. */
  readonly config: Readonly<Config>;
  /** navi's environment, as the app was given it. */
  readonly env: Env;
  /** Every tool this process can run: built-ins, plugin tools and MCP tools. */
  readonly registry: ToolRegistry = new ToolRegistry();
  /** Loads the plugin directory into the registry (see `loadPlugins`); plugin tools run in workers. */
  readonly plugins: PluginLoader;
  /**
   * API keys (configured ones and every preset's key variable), MCP header and `$VAR` env values; redacted from
   * all output and kept from child processes.
   */
  readonly secrets: Secrets;
  /** The OS sandbox bash commands run in (checked on first use; see `Sandbox.status`). */
  readonly sandbox: Sandbox;
  /** The configured MCP servers. */
  readonly mcp: McpService;
  /** The `@mention` kinds of a user message: MCP resources, then workspace files. */
  readonly mentions: readonly MentionProvider[];
  /** The project layer around the workspace (absent when none was read: tests, `doctor`). */
  readonly project?: Project;
  /** The custom commands and Agent Skills of the user's and the project's folders. */
  readonly extensions: Extensions;
  /** The agents the `task` tool starts, read once at start-up (its description lists them). */
  readonly agents: AgentCatalog;
  /** The run's start-up trace, when the front made one: conversations mark their first request and byte. */
  readonly trace?: StartupTrace;
  /** The loaded hooks (command hooks from settings files, plugin hooks once plugins load). */
  readonly hooks: Hooks;
  /** The plugin bundles of the user's plugins directory and, when trusted, the project's. */
  readonly bundles: readonly PluginBundle[];
  #closers: (() => void | Promise<void>)[] = [];

  /** Register the built-ins and prepare plugins, MCP and secrets; nothing is loaded or connected yet. */
  constructor(opts: AppOptions) {
    this.home = opts.home;
    this.workspace = opts.workspace;
    this.config = opts.config;
    this.env = opts.env;
    this.project = opts.project;
    this.trace = opts.trace;
    this.extensions = opts.extensions ?? Extensions.empty();
    this.secrets = Secrets.fromConfig(opts.config, opts.env);
    this.secrets.addConfig({ providers: presetKeyRefs() }, opts.env);
    this.sandbox = new Sandbox({
      home: this.home,
      workspace: this.workspace,
      settings: opts.config.sandbox,
      env: opts.env,
    });
    this.agents = opts.agents ?? AgentCatalog.builtin();
    for (const tool of opts.builtins) this.registry.register(tool);
    if (!this.registry.get("task")) this.registry.register(taskTool(this.agents));
    this.plugins = new PluginLoader(this.registry, {
      home: this.home,
      workspace: this.workspace,
      version: VERSION,
      config: this.config.plugins,
      childEnv: () => this.childEnv(),
      log: (line) => this.log("plugins.log", line),
      projectDirs: opts.project?.trusted ? projectPluginDirs(opts.project) : undefined,
    });
    this.mcp = new McpService({
      registry: this.registry,
      home: this.home,
      workspace: this.workspace,
      servers: opts.config.mcp_servers,
      env: opts.env,
      secrets: this.secrets,
      version: VERSION,
      early: opts.early,
      loadConfig: opts.project && (async () => {
        const { loadConfig } = await import("../config/mod.ts");
        return opts.project!.mergeOver(await loadConfig(this.home));
      }),
    });
    this.mentions = [this.mcp.mentions(), fileMentions(this.workspace)];
    const trusted = opts.project?.trusted === true;
    this.bundles = (opts.bundles ?? []).filter((b) => b.level === "user" || trusted);
    this.hooks = new Hooks({
      commands: opts.hooks?.hooks.filter((h) => h.source.level !== "project" || trusted),
      skipped: opts.hooks?.skipped,
      workspace: this.workspace,
      childEnv: () => this.childEnv(),
      redact: (text) => this.secrets.redact(text),
    });
  }

  /**
   * The `agents/` folders of the plugin bundles (user bundles first), for subagent definitions: each holds
   * one Markdown file per agent, as Claude Code's plugins lay them out.
   */
  agentDirs(): string[] {
    return this.bundles.flatMap((b) => (b.agents ? [b.agents] : []));
  }

  /** Load (or reload) the plugin directory and the plugins' hooks; returns one report per file. */
  async loadPlugins(): Promise<PluginReport[]> {
    const reports = await this.plugins.load();
    for (const line of await this.hooks.setPluginHooks(this.plugins.hooks())) this.log("plugins.log", line);
    return reports;
  }

  /** The environment for child processes of tools: navi's own, without the secrets it knows. */
  childEnv(): Record<string, string> {
    return this.secrets.childEnv(this.env);
  }

  /** Append a line (secrets redacted, control characters shown escaped) to `$NAVI_HOME/logs/<file>`; never throws. */
  log(file: string, line: string): void {
    try {
      const dir = join(this.home, "logs");
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(
        join(dir, file),
        `${new Date().toISOString()} ${escapeControls(this.secrets.redact(line))}\n`,
        {
          append: true,
        },
      );
    } catch { /* a log line must never break navi */ }
  }

  /** Run (and await) `fn` at `close` (conversations stop their shells and release their sessions this way). */
  onClose(fn: () => void | Promise<void>): void {
    this.#closers.push(fn);
  }

  /**
   * Close the conversations (their SessionEnd hooks run, background shells stop, sessions are released), then
   * end plugin workers, any hook still running and MCP connections (ends stdio server processes). The CLI
   * program calls this once, at exit.
   */
  async close(): Promise<void> {
    await Promise.all(
      this.#closers.splice(0).map(async (fn) => {
        try {
          await fn();
        } catch { /* closing one thing must not keep the others open */ }
      }),
    );
    await this.plugins.close();
    this.hooks.close();
    await this.mcp.close();
  }
}

/** The `.navi/plugins/` folders of a project layer. */
export function projectPluginDirs(project: Project): string[] {
  return project.layout.folders
    .filter((f) => f.level === "project" && f.kind === "navi")
    .map((f) => join(f.path, "plugins"));
}
