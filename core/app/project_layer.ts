// The project layer at start-up: read it, list what it would run, settle trust, merge its settings.
import { join } from "node:path";
import { AgentCatalog, type AgentFolder, agentFolders } from "../agents/mod.ts";
import type { Config } from "../config/mod.ts";
import { configPath } from "../home.ts";
import { Extensions, listFiles } from "../extensions/mod.ts";
import type { Env } from "../output/mod.ts";
import {
  discoverPlugins,
  expandPluginRoot,
  findBundles,
  type PluginBundle,
  pluginsDir,
} from "../plugins/mod.ts";
import type { McpServerConfig } from "../config/mod.ts";
import { hookFiles, hookTrustItems, type LoadedHooks, loadHooks } from "../hooks/mod.ts";
import {
  type MergedConfig,
  Project,
  type ProjectFolder,
  readProjectConfig,
  type TrustItem,
  type TrustState,
  TrustStore,
  untrustedLine,
} from "../project/mod.ts";
import { projectPluginDirs } from "./app.ts";

/** The question a front puts to the user about an untrusted folder with things to run. */
export interface TrustQuestion {
  /** The folder (the project root). */
  root: string;
  /** Never answered, or changed since it was. */
  state: Extract<TrustState, "new" | "changed">;
  /** Exactly what would run or be allowed. */
  items: readonly TrustItem[];
  /** The files those come from, with their text (for a "show" answer). */
  files(): Promise<{ path: string; text: string }[]>;
}

/** Answers a TrustQuestion: true trusts the folder, false refuses (both are stored). */
export type AskTrust = (question: TrustQuestion) => Promise<boolean>;

/** A project layer read at start-up, with its trust settled. */
export interface ProjectLayer {
  /** The project (its `trusted` set). */
  project: Project;
  /** Its commands and skills (and the user's). */
  extensions: Extensions;
  /** The agents: the user's, plugins' and (in a trusted folder) the project's, and the built-ins. */
  agents: AgentCatalog;
  /** The user's config with the project's merged over it. */
  merged: MergedConfig;
  /** Where the folder stood before any question was asked. */
  state: TrustState;
  /** The hooks of the user's and the project's settings files (project ones run only when trusted). */
  hooks: LoadedHooks;
  /** The plugin bundles of the user's plugins directory and the project's (`.navi/plugins/`). */
  bundles: PluginBundle[];
}

/** What the project's plugin folders would load (each module file), for the trust prompt. */
function pluginItems(project: Project): TrustItem[] {
  const items: TrustItem[] = [];
  for (const dir of projectPluginDirs(project)) {
    for (const name of discoverPlugins(dir)) {
      if (!name.endsWith("/mod.ts")) {
        items.push({ kind: "plugin", what: join(dir, name), file: join(dir, name), name });
        continue;
      }
      const folder = join(dir, name.slice(0, -"/mod.ts".length));
      for (
        const rel of listFiles(folder, { ext: "", limit: 500 }).filter((f) => /\.(ts|js|mjs|mts)$/.test(f))
      ) {
        items.push({ kind: "plugin", what: join(folder, rel), file: join(folder, rel), name });
      }
    }
  }
  return items;
}

/** The bundles' `commands/` and `skills/` as folders of the project layer (after the project's own). */
function bundleFolders(bundles: readonly PluginBundle[], project: Project): ProjectFolder[] {
  return bundles.filter((b) => b.commands || b.skills).map((b) => ({
    kind: b.claude ? "claude" : "navi",
    level: b.level,
    path: b.root,
    ...(b.level === "project" ? { root: project.layout.root } : {}),
  }));
}

/** The bundles' `agents/` folders, as agent folders of the bundle's level (a project's need trust). */
function bundleAgentFolders(bundles: readonly PluginBundle[], project: Project): AgentFolder[] {
  return bundles.flatMap((b) =>
    b.agents
      ? [
        b.level === "project"
          ? { path: b.agents, level: "project" as const, root: project.layout.root }
          : { path: b.agents, level: "plugin" as const },
      ]
      : []
  );
}

/** The MCP servers of the bundles' `.mcp.json` files (`${CLAUDE_PLUGIN_ROOT}` expanded), as trust items too. */
function bundleServers(bundles: readonly PluginBundle[]) {
  const servers: Record<string, McpServerConfig> = {};
  const items: TrustItem[] = [];
  const problems: string[] = [];
  for (const b of bundles.filter((b) => b.mcpFile)) {
    const read = readProjectConfig({
      configFiles: [],
      mcpFiles: [b.mcpFile!],
      mcpText: (text) => expandPluginRoot(text, b.root),
    });
    problems.push(...read.problems);
    for (const [name, server] of Object.entries(read.settings[0]?.config.mcp_servers ?? {})) {
      servers[name] ??= server;
      const what = server.url ?? [server.command, ...(server.args ?? [])].join(" ");
      items.push({ kind: "MCP server", what: `${name}: ${what}`, file: b.mcpFile!, name });
    }
  }
  return { servers, items, problems };
}

/**
 * What a feature adds to the trust prompt and hash (hooks list their commands): called with the project and its
 * extensions after they are read, before the trust check.
 */
export type RunnableContributor = (
  layer: { project: Project; extensions: Extensions },
) => readonly TrustItem[] | Promise<readonly TrustItem[]>;

/** Read the project layer around `workspace` and list what it would run; trust is not settled yet. */
export async function readProjectLayer(
  opts: {
    home: string;
    workspace: string;
    env: Env;
    user: Config;
    contributors?: readonly RunnableContributor[];
    agentFolders?: readonly AgentFolder[];
  },
): Promise<
  {
    project: Project;
    extensions: Extensions;
    agents: AgentCatalog;
    hooks: LoadedHooks;
    bundles: PluginBundle[];
  }
> {
  const project = Project.read({
    workspace: opts.workspace,
    home: opts.home,
    userHome: opts.env.get("HOME") ?? opts.env.get("USERPROFILE"),
    user: opts.user,
    userFile: configPath(opts.home),
  });
  const bundles = findBundles([
    { dir: pluginsDir(opts.home), level: "user" },
    ...projectPluginDirs(project).map((dir) => ({ dir, level: "project" as const })),
  ]);
  const [extensions, agents] = await Promise.all([
    Extensions.load([...project.layout.folders, ...bundleFolders(bundles, project)]),
    AgentCatalog.load([
      ...agentFolders(project.layout.folders),
      ...bundleAgentFolders(bundles, project),
      ...(opts.agentFolders ?? []),
    ]),
  ]);
  project.addRunnables(pluginItems(project));
  project.addRunnables(extensions.runnables());
  project.addRunnables(agents.runnables());
  const userHome = opts.env.get("HOME");
  const hooks = await loadHooks(hookFiles({
    userConfig: configPath(opts.home),
    userHome,
    layout: project.layout,
    bundles: bundles.filter((b) => b.hooksFile).map((b) => ({ ...b, file: b.hooksFile! })),
  }));
  project.addRunnables(hookTrustItems(hooks));
  project.addRunnables(bundleServers(bundles.filter((b) => b.level === "project")).items);
  for (const contribute of opts.contributors ?? []) {
    project.addRunnables(await contribute({ project, extensions }));
  }
  return { project, extensions, agents, hooks, bundles };
}

async function fileTexts(items: readonly TrustItem[]): Promise<{ path: string; text: string }[]> {
  const paths = [...new Set(items.map((i) => i.file))];
  return await Promise.all(
    paths.map(async (path) => ({ path, text: await Deno.readTextFile(path).catch(() => "(unreadable)") })),
  );
}

/**
 * Read the project layer, settle its trust (stored answer, else `ask` when given) and merge its settings.
 * Lines for the user (refused values, bad files, an untrusted folder's skipped parts) go to `report`.
 */
export async function loadProjectLayer(
  opts: {
    home: string;
    workspace: string;
    env: Env;
    user: Config;
    ask?: AskTrust;
    report(line: string): void;
    contributors?: readonly RunnableContributor[];
    agentFolders?: readonly AgentFolder[];
  },
): Promise<ProjectLayer> {
  const { project, extensions, agents: read, hooks, bundles } = await readProjectLayer(opts);
  const store = new TrustStore(opts.home);
  const state = await project.trustState(store);
  project.trusted = state === "trusted";
  const items = project.runnables();
  if ((state === "new" || state === "changed") && opts.ask) {
    const answer = await opts.ask({ root: project.layout.root, state, items, files: () => fileTexts(items) });
    store.set(project.layout.root, { trusted: answer, hash: (await project.hash())! });
    project.trusted = answer;
  }
  const merged = project.merged();
  const agents = project.trusted ? read : read.withoutProject();
  const served = bundleServers(bundles.filter((b) => b.level === "user" || project.trusted));
  if (Object.keys(served.servers).length) {
    merged.config = { ...merged.config, mcp_servers: { ...served.servers, ...merged.config.mcp_servers } };
  }
  const problems = [
    ...project.problems,
    ...merged.problems,
    ...extensions.problems,
    ...agents.problems,
    ...served.problems,
  ];
  for (const line of problems) opts.report(line);
  if (!project.trusted && items.length) opts.report(untrustedLine(project.layout.root, items));
  return { project, extensions, agents, merged, state, hooks, bundles };
}
