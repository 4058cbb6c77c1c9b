// Git state a sandboxed command must not change, because git runs it later outside the sandbox: hooks, the
// repository config and what it points at inside the workspace (`core.hooksPath`, e.g. husky's ignored
// `.husky/_`, and `include.path` files), and a `commondir` file (which would point git at another directory's
// config and hooks).
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isInside } from "../workspace/mod.ts";

/** What the sandbox must do for the workspace's `.git`. */
export interface GitGuard {
  /** Directories bound onto themselves so that they cannot be renamed or replaced (`.git`, parents). */
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

function refused(name: string): GitGuard {
  const error =
    `${name} is a symbolic link, which the sandbox cannot keep read-only; replace it with the real ` +
    `directory or file, or set "sandbox": { "mode": "off" } in config.json`;
  return { pin: [], readOnly: [], error, after: nothing };
}

/** Paths a git config names that git reads code or config from: `core.hooksPath` and `include*.path`. */
export function configTargets(
  text: string,
  at: { workspace: string; gitDir: string; home?: string },
): string[] {
  const out: string[] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      section = header[1].toLowerCase();
      line = line.slice(header[0].length).trim();
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1].toLowerCase();
    const value = kv[2].replace(/\s+[#;].*$/, "").trim().replace(/^"(.*)"$/, "$1");
    const path = (base: string) =>
      value.startsWith("~/") && at.home
        ? join(at.home, value.slice(2))
        : isAbsolute(value)
        ? value
        : resolve(base, value);
    if (section === "core" && key === "hookspath" && value) out.push(path(at.workspace));
    if ((section === "include" || section === "includeif") && key === "path" && value) {
      out.push(path(at.gitDir));
    }
  }
  return out;
}

/** Directories strictly between `root` and `target`. */
function between(root: string, target: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(target); dir !== root && isInside(root, dir); dir = dirname(dir)) out.push(dir);
  return out;
}

/**
 * Inspect `<workspace>/.git` (the workspace as a real path). A missing `.git/hooks` directory or
 * `.git/config` file is created first (empty), so that it can be mounted read-only.
 */
export async function guardGit(workspace: string, opts: { home?: string } = {}): Promise<GitGuard> {
  const dotGit = join(workspace, ".git");
  const info = await lstat(dotGit);
  if (!info) return { pin: [], readOnly: [], after: nothing };
  if (info.isSymlink) return refused(".git");
  if (!info.isDirectory) return { pin: [], readOnly: [dotGit], after: nothing };
  const hooks = join(dotGit, "hooks");
  const config = join(dotGit, "config");
  for (const path of [hooks, config]) {
    if ((await lstat(path))?.isSymlink) return refused(relative(workspace, path));
  }
  await Deno.mkdir(hooks, { recursive: true });
  if (!await lstat(config)) await Deno.writeTextFile(config, "", { createNew: true }).catch(() => {});
  const pin = new Set([dotGit]);
  const readOnly = [hooks, config];
  const absent = [join(dotGit, "commondir")];
  const text = await Deno.readTextFile(config).catch(() => "");
  for (const target of configTargets(text, { workspace, gitDir: dotGit, home: opts.home })) {
    if (!isInside(workspace, target) || target === workspace || readOnly.includes(target)) continue;
    const entry = await lstat(target);
    if (entry?.isSymlink) return refused(relative(workspace, target));
    if (entry) readOnly.push(target);
    else absent.push(target);
    for (const dir of between(workspace, target)) pin.add(dir);
  }
  const existing = await Promise.all(absent.map(async (p) => (await lstat(p)) !== undefined));
  const watched = absent.filter((_, i) => !existing[i]);
  const livePins: string[] = [];
  for (const dir of pin) if ((await lstat(dir))?.isDirectory) livePins.push(dir);
  return {
    pin: livePins,
    readOnly,
    async after() {
      const notes: string[] = [];
      for (const path of watched) {
        if (!(await lstat(path))) continue;
        await Deno.remove(path, { recursive: true });
        notes.push(relative(workspace, path));
      }
      if (!notes.length) return "";
      return `navi removed ${
        notes.join(", ")
      }, which the command created: git would read hooks or config from it`;
    },
  };
}
