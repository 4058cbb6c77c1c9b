// Where a project's folders are: `.navi/` (and, with the compat switches, `.claude/`, `.agents/`, `.mcp.json`)
// in each directory from the git root (or the workspace) down to the workspace, and the user's own twins.
import { join, resolve } from "node:path";
import { dirsDown, gitRoot } from "../workspace/mod.ts";
import type { CompatSettings } from "../config/mod.ts";

/** Whose folders these are: the other agents' names or navi's own. */
export type FolderKind = "navi" | "claude" | "agents";

/** One folder commands, skills, agents or hooks may come from. */
export interface ProjectFolder {
  /** `.navi` (or `$NAVI_HOME` at user level), `.claude` or `.agents`. */
  kind: FolderKind;
  /** A repository's folder, or the user's own. */
  level: "project" | "user";
  /** The folder (absolute): `/repo/.claude`, `~/.agents`, `$NAVI_HOME`. */
  path: string;
  /** For a project folder: the project root, which nothing read from it may point outside of. */
  root?: string;
}

/** The folders and files of the project layer around a workspace. */
export interface ProjectLayout {
  /** The workspace (absolute). */
  workspace: string;
  /** The project root: the nearest git root at or above the workspace, else the workspace itself. */
  root: string;
  /** The directories from the root down to the workspace, root first. */
  dirs: string[];
  /** Every folder found, highest precedence first: project folders (nearest directory first; in each,
   * `.navi`, `.claude`, `.agents`), then the user's (`$NAVI_HOME`, `~/.claude`, `~/.agents`). */
  folders: ProjectFolder[];
  /** The `.navi/config.json` files, root first. */
  configFiles: string[];
  /** The `.mcp.json` files (with `compat.claude`), root first. */
  mcpFiles: string[];
  /** The compat switches in force. */
  compat: Required<CompatSettings>;
}

function isDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The nearest directory at or above `dir` that holds `.git` (a directory, or a worktree's file), else `dir`. */
export function projectRoot(dir: string): string {
  return gitRoot(dir) ?? resolve(dir);
}

/** The `.navi/config.json` files from the project root down to `workspace`, root first. */
export function projectConfigFiles(workspace: string): string[] {
  const ws = resolve(workspace);
  return dirsDown(projectRoot(ws), ws).map((d) => join(d, ".navi", "config.json")).filter(isFile);
}

/**
 * Find the project layer around `workspace`: the directories from the project root down to it, the folders
 * in them and at user level (`home` is navi's home, `userHome` the user's home directory), honouring `compat`.
 */
export function findProject(
  workspace: string,
  opts: { home: string; userHome?: string; compat?: CompatSettings },
): ProjectLayout {
  const ws = resolve(workspace);
  const root = projectRoot(ws);
  const dirs = dirsDown(root, ws);
  const compat = { claude: opts.compat?.claude ?? true, agents: opts.compat?.agents ?? true };
  const kinds: [FolderKind, string][] = [["navi", ".navi"]];
  if (compat.claude) kinds.push(["claude", ".claude"]);
  if (compat.agents) kinds.push(["agents", ".agents"]);
  const folders: ProjectFolder[] = [];
  for (const dir of [...dirs].reverse()) {
    for (const [kind, name] of kinds) {
      const path = join(dir, name);
      if (isDir(path) && resolve(path) !== resolve(opts.home)) {
        folders.push({ kind, level: "project", path, root });
      }
    }
  }
  const user: [FolderKind, string | undefined][] = [
    ["navi", opts.home],
    ["claude", compat.claude && opts.userHome ? join(opts.userHome, ".claude") : undefined],
    ["agents", compat.agents && opts.userHome ? join(opts.userHome, ".agents") : undefined],
  ];
  for (const [kind, path] of user) {
    if (path && isDir(path) && !folders.some((f) => resolve(f.path) === resolve(path))) {
      folders.push({ kind, level: "user", path });
    }
  }
  return {
    workspace: ws,
    root,
    dirs,
    folders,
    configFiles: dirs.map((d) => join(d, ".navi", "config.json")).filter(isFile),
    mcpFiles: compat.claude ? dirs.map((d) => join(d, ".mcp.json")).filter(isFile) : [],
    compat,
  };
}
