// Git state a sandboxed command must not change, because git runs it later outside the sandbox: hooks, the
// repository config, and a `commondir` file (which would point git at another directory's config and hooks).
import { join } from "node:path";

/** What the sandbox must do for the workspace's `.git`. */
export interface GitGuard {
  /** Directories bound onto themselves so that they cannot be renamed or replaced (`.git`). */
  pin: string[];
  /** Paths inside the writable workspace that stay read-only (`.git/hooks`, `.git/config`, a `.git` file). */
  readOnly: string[];
  /** Why commands may not run in this workspace (a protected path is a symbolic link). */
  error?: string;
  /** After the command (every process of the sandbox has ended by then): undo what it may not leave. */
  after(): Promise<string>;
}

const nothing = () => Promise.resolve("");

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

function symlinkError(name: string): string {
  return `${name} is a symbolic link, which the sandbox cannot keep read-only; replace it with the real ` +
    `directory or file, or set "sandbox": { "mode": "off" } in config.json`;
}

/**
 * Inspect `<workspace>/.git` (the workspace as a real path). A missing `.git/hooks` directory or
 * `.git/config` file is created first (empty), so that it can be mounted read-only.
 */
export async function guardGit(workspace: string): Promise<GitGuard> {
  const dotGit = join(workspace, ".git");
  const info = await lstat(dotGit);
  if (!info) return { pin: [], readOnly: [], after: nothing };
  if (info.isSymlink) return { pin: [], readOnly: [], error: symlinkError(".git"), after: nothing };
  if (!info.isDirectory) return { pin: [], readOnly: [dotGit], after: nothing };
  const hooks = join(dotGit, "hooks");
  const config = join(dotGit, "config");
  for (const [path, name] of [[hooks, ".git/hooks"], [config, ".git/config"]]) {
    const entry = await lstat(path);
    if (entry?.isSymlink) return { pin: [], readOnly: [], error: symlinkError(name), after: nothing };
  }
  await Deno.mkdir(hooks, { recursive: true });
  if (!await lstat(config)) await Deno.writeTextFile(config, "", { createNew: true }).catch(() => {});
  const commondir = join(dotGit, "commondir");
  const hadCommondir = (await lstat(commondir)) !== undefined;
  return {
    pin: [dotGit],
    readOnly: [hooks, config],
    async after() {
      if (hadCommondir || !(await lstat(commondir))) return "";
      await Deno.remove(commondir, { recursive: true });
      return "navi removed .git/commondir, which the command created: it would point git at other hooks and config";
    },
  };
}
