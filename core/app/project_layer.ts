// The project layer at start-up: read it, list what it would run, settle trust, merge its settings.
import { join } from "node:path";
import { AgentCatalog, type AgentFolder, agentFolders } from "../agents/mod.ts";
import type { Config } from "../config/mod.ts";
import { configPath } from "../home.ts";
import { Extensions, listFiles } from "../extensions/mod.ts";
import type { Env } from "../output/mod.ts";
import { discoverPlugins } from "../plugins/mod.ts";
import {
  type MergedConfig,
  Project,
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
): Promise<{ project: Project; extensions: Extensions; agents: AgentCatalog }> {
  const project = Project.read({
    workspace: opts.workspace,
    home: opts.home,
    userHome: opts.env.get("HOME") ?? opts.env.get("USERPROFILE"),
    user: opts.user,
    userFile: configPath(opts.home),
  });
  const [extensions, agents] = await Promise.all([
    Extensions.load(project.layout.folders),
    AgentCatalog.load([...agentFolders(project.layout.folders), ...(opts.agentFolders ?? [])]),
  ]);
  project.addRunnables(pluginItems(project));
  project.addRunnables(extensions.runnables());
  project.addRunnables(agents.runnables());
  for (const contribute of opts.contributors ?? []) {
    project.addRunnables(await contribute({ project, extensions }));
  }
  return { project, extensions, agents };
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
  const { project, extensions, agents: read } = await readProjectLayer(opts);
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
  const problems = [...project.problems, ...merged.problems, ...extensions.problems, ...agents.problems];
  for (const line of problems) opts.report(line);
  if (!project.trusted && items.length) opts.report(untrustedLine(project.layout.root, items));
  return { project, extensions, agents, merged, state };
}
