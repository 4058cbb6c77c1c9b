// The one start-up sequence of every front (-p, the REPL, stream-json, ACP): the app, then a conversation.
import { AgentCatalog, type AgentFolder } from "../agents/mod.ts";
import { type Config, loadConfig } from "../config/mod.ts";
import type { EarlyServers, Elicit } from "../mcp/mod.ts";
import type { Env } from "../output/mod.ts";
import { cleanOrphans } from "../shells/mod.ts";
import { hookFiles, loadHooks } from "../hooks/mod.ts";
import { configPath } from "../home.ts";
import type { Tool } from "../tool/mod.ts";
import type { StartupTrace } from "../trace/mod.ts";
import { NaviApp } from "./app.ts";
import { type AskTrust, loadProjectLayer, type RunnableContributor } from "./project_layer.ts";
import { type Conversation, type ConversationOptions, openConversation } from "./conversation.ts";

/** A line for the user during start-up; the front decides how it looks (stderr, a notice, an editor log). */
export interface StartupLine {
  /** `warning`: something will not work as configured; `info`: worth knowing. */
  kind: "warning" | "info";
  /** The text, without a `navi:` prefix. */
  text: string;
}

/** How to build the app. */
export interface BootOptions {
  /** navi's home directory. */
  home: string;
  /** The workspace root (absolute). */
  workspace: string;
  /** navi's environment. */
  env: Env;
  /** The built-in tools (the front passes them: the engine never imports `tools/`). */
  builtins: Tool[];
  /** The run's start-up trace (`NAVI_TRACE=startup`): the sequence marks its phases in it. */
  trace?: StartupTrace;
  /** Stdio MCP servers started early; ended here when the config turns out invalid. */
  early?: EarlyServers;
  /** Load the plugin directory (`report`: each failure is a line; `quiet`: not reported; `skip`: not loaded). */
  plugins?: "report" | "quiet" | "skip";
  /** config.json as already read (tests, `doctor`); default: read from `home`. */
  config?: Config;
  /** Where start-up lines go. */
  report?(line: StartupLine): void;
  /** Read the project layer (`.navi/`, `.claude/`, `.agents/`, `.mcp.json`; default true). */
  project?: boolean;
  /** Asks whether to trust a folder whose project would run code; without it, such parts are skipped. */
  askTrust?: AskTrust;
  /** What other features of the project would run (hooks), for the trust prompt and hash. */
  contributors?: readonly RunnableContributor[];
  /** More `agents/` folders to read agent files from (plugin bundles'), after the project's and the user's. */
  agentFolders?: readonly AgentFolder[];
}

/**
 * Read config.json and the project layer (its trust settled: a stored answer, else `askTrust`), build the app
 * with the merged config and load its plugins; first stop the background shells an earlier navi left running
 * when it was killed (see `cleanOrphans`). Throws ConfigError for an invalid config.json.
 */
export async function bootApp(opts: BootOptions): Promise<NaviApp> {
  for (const o of await cleanOrphans(opts.home)) {
    const { command, owner } = o.record;
    const what = command.length > 60 ? `${command.slice(0, 59)}…` : command;
    opts.report?.({
      kind: "info",
      text: `stopped a background shell an earlier navi (pid ${owner.pid}) left running: ${what}`,
    });
  }
  let app: NaviApp;
  try {
    const user = opts.config ?? await loadConfig(opts.home);
    opts.trace?.mark("config read");
    const layer = opts.project === false ? undefined : await loadProjectLayer({
      ...opts,
      user,
      ask: opts.askTrust,
      report: (text) => opts.report?.({ kind: "warning", text }),
    });
    const hooks = layer?.hooks ?? await loadHooks(hookFiles({
      userConfig: configPath(opts.home),
      userHome: opts.env.get("HOME"),
      claude: user.compat?.claude ?? true,
    }));
    for (const text of hooks.problems) opts.report?.({ kind: "warning", text });
    const config = layer?.merged.config ?? user;
    const agents = layer?.agents ?? await AgentCatalog.load(opts.agentFolders ?? []);
    const { project, extensions, bundles } = layer ?? {};
    app = new NaviApp({ ...opts, config, project, extensions, hooks, bundles, agents });
  } catch (err) {
    await Promise.all([...(opts.early?.values() ?? [])].map((p) => p.stop()));
    throw err;
  }
  const plugins = opts.plugins ?? "report";
  if (plugins === "skip") return app;
  const reports = await app.loadPlugins();
  if (plugins === "report") {
    for (const r of reports) {
      if (r.status === "failed") {
        opts.report?.({ kind: "warning", text: `plugin ${r.file} skipped: ${r.error}` });
      }
    }
  }
  return app;
}

/** How a front opens its conversation. */
export interface StartOptions extends ConversationOptions {
  /** `await`: MCP servers are connected before the conversation opens (-p); `background`: they connect while
   * the user types (an interactive REPL). */
  mcp: "await" | "background";
  /** Answers MCP servers' form requests. */
  elicit?: Elicit;
  /** Whether a person watches a terminal: then the `auto` approval and sandbox warnings are shown. */
  terminal: boolean;
  /** Where start-up lines go (also those that arrive after this returns: background MCP failures). */
  report(line: StartupLine): void;
  /** MCP servers are connected (tools, resources and prompts are known). */
  onMcpReady?(): void | Promise<void>;
}

/**
 * Connect MCP servers (awaited or in the background), open the conversation (new or resumed) and report what
 * the user should know: resume problems, servers that failed, `auto` approval, a sandbox that is off.
 */
export async function startConversation(app: NaviApp, opts: StartOptions): Promise<Conversation> {
  const mcpFailures = () => {
    for (const s of app.mcp.states()) {
      if (s.error) opts.report({ kind: "warning", text: `MCP server ${s.name} ${s.status}: ${s.error}` });
    }
  };
  const connected = async () => {
    app.trace?.mark("tools ready");
    await opts.onMcpReady?.();
    mcpFailures();
  };
  if (opts.mcp === "await") {
    await app.mcp.start({ elicit: opts.elicit });
    app.trace?.mark("tools ready");
    await opts.onMcpReady?.();
  }
  const convo = openConversation(app, opts);
  for (const w of convo.warnings) opts.report({ kind: "warning", text: w });
  if (opts.mcp === "await") mcpFailures();
  else {
    app.mcp.start({ elicit: opts.elicit }).then(connected).catch((err) =>
      opts.report({ kind: "warning", text: `MCP: ${(err as Error).message}` })
    );
  }
  if (opts.terminal) {
    if (convo.policy.mode === "auto") {
      opts.report({ kind: "warning", text: "approval mode auto runs every tool without asking" });
    }
    app.sandbox.warning()
      .then((w) => w && opts.report({ kind: "warning", text: w.replace(/^warning: /, "") }))
      .catch(() => {});
  }
  return convo;
}
