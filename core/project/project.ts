// One workspace's project layer: its folders, its settings merged over the user's, what it would run, and
// whether its folder is trusted to run it.
import type { CompatSettings, Config } from "../config/mod.ts";
import { findProject, projectConfigFiles, type ProjectLayout } from "./layout.ts";
import { mergeConfig, type MergedConfig, type ProjectSettings, readProjectConfig } from "./project_config.ts";
import { trustHash, type TrustItem, type TrustState, type TrustStore } from "./trust.ts";

/** How to read a project layer. */
export interface ProjectOptions {
  /** The workspace (absolute). */
  workspace: string;
  /** navi's home (`$NAVI_HOME`): the user-level navi folder. */
  home: string;
  /** The user's home directory (`~/.claude`, `~/.agents` are read from it); absent: none are read. */
  userHome?: string;
  /** The user's config.json as loaded. */
  user: Config;
  /** The user's config.json path (for provenance). */
  userFile: string;
}

function serverLine(name: string, s: NonNullable<Config["mcp_servers"]>[string]): string {
  if (s.url) return `${name}: ${s.url}`;
  const words = [s.command!, ...(s.args ?? [])].map((
    w,
  ) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w)));
  return `${name}: ${words.join(" ")}${s.cwd ? ` (in ${s.cwd})` : ""}`;
}

/**
 * The project layer of a workspace. Reading it runs nothing: its settings, folders and the list of what it
 * would run are known at once; what runs code or widens permissions is applied only once `trusted` is set.
 */
export class Project {
  /** The folders and files found. */
  readonly layout: ProjectLayout;
  /** One line per project file or value that was refused or could not be read, naming the file. */
  readonly problems: string[];
  /** Whether the folder is trusted (set by the start-up sequence after the trust check). */
  trusted = false;
  #settings: ProjectSettings[];
  #items: TrustItem[] = [];
  #user: { config: Config; file: string };

  private constructor(
    layout: ProjectLayout,
    parts: { settings: ProjectSettings[]; problems: string[]; user: { config: Config; file: string } },
  ) {
    this.layout = layout;
    this.#settings = parts.settings;
    this.problems = parts.problems;
    this.#user = parts.user;
    for (const { file, config } of this.#settings) {
      for (const [name, server] of Object.entries(config.mcp_servers ?? {})) {
        this.#items.push({ kind: "MCP server", what: serverLine(name, server), file, name });
      }
      for (const rule of config.approval?.allow ?? []) {
        this.#items.push({ kind: "allow rule", what: rule, file });
      }
    }
  }

  /** Read the project layer around `opts.workspace` (synchronously; nothing is run). */
  static read(opts: ProjectOptions): Project {
    const first = readProjectConfig({ configFiles: projectConfigFiles(opts.workspace), mcpFiles: [] });
    const compat: CompatSettings = { ...opts.user.compat };
    for (const s of first.settings) Object.assign(compat, s.config.compat);
    const layout = findProject(opts.workspace, { home: opts.home, userHome: opts.userHome, compat });
    const mcp = readProjectConfig({ configFiles: [], mcpFiles: layout.mcpFiles });
    return new Project(layout, {
      settings: [...mcp.settings, ...first.settings],
      problems: [...mcp.problems, ...first.problems],
      user: { config: opts.user, file: opts.userFile },
    });
  }

  /** The project files with settings, as read (root first). */
  get settings(): readonly ProjectSettings[] {
    return this.#settings;
  }

  /**
   * Add what else the project would run (command `!` lines, plugin files, hooks): listed in the trust prompt
   * and part of the trust hash. Call before the trust check.
   */
  addRunnables(items: readonly TrustItem[]): void {
    this.#items.push(...items);
  }

  /** Everything the project would run or allow, in the order found. */
  runnables(): readonly TrustItem[] {
    return this.#items;
  }

  /** The hash of what would run (undefined when nothing would). */
  async hash(): Promise<string | undefined> {
    return this.#items.length ? await trustHash(this.#items) : undefined;
  }

  /** Where the folder stands in `store` for what would run now. */
  async trustState(store: TrustStore): Promise<TrustState> {
    return store.state(this.layout.root, await this.hash());
  }

  /** `user` (a config.json read again) with this project's settings merged over it, as `merged` does. */
  mergeOver(user: Config): Config {
    return mergeConfig({ ...this.#user, config: user }, this.#settings, {
      trusted: this.trusted,
      workspace: this.layout.workspace,
    }).config;
  }

  /** The effective config: the user's with the project's merged over it (gated parts only when trusted). */
  merged(): MergedConfig {
    return mergeConfig(this.#user, this.#settings, {
      trusted: this.trusted,
      workspace: this.layout.workspace,
    });
  }
}

/** The one line `-p` (or a REPL that was answered no) prints for an untrusted folder with things to run. */
export function untrustedLine(root: string, items: readonly TrustItem[]): string {
  const counts = new Map<string, string[]>();
  for (const i of items) counts.set(i.kind, [...(counts.get(i.kind) ?? []), i.name ?? i.what]);
  const parts = [...counts].map(([kind, names]) =>
    names.length === 1
      ? `${kind} ${names[0]}`
      : `${names.length} ${kind}s (${[...new Set(names)].slice(0, 4).join(", ")}${
        names.length > 4 ? ", ..." : ""
      })`
  );
  return `${root} is not trusted; skipped ${parts.join(", ")} (navi trust, run there, trusts it)`;
}
