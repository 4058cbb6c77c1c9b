import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type ToolContext, ToolError } from "../tool/mod.ts";

/** Whether `target` is `root` or below it (both absolute, already resolved). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && rel.split(sep)[0] !== "..");
}

/** The nearest directory at or above `dir` that holds `.git` (a directory, or a worktree's file). */
export function gitRoot(dir: string): string | undefined {
  for (let d = resolve(dir);; d = dirname(d)) {
    try {
      Deno.statSync(join(d, ".git"));
      return d;
    } catch { /* keep climbing */ }
    if (dirname(d) === d) return undefined;
  }
}

/** The directories from `top` down to `dir` (both included, `dir` at or below `top`), top first. */
export function dirsDown(top: string, dir: string): string[] {
  const rel = relative(top, dir);
  if (!rel) return [top];
  const dirs = [top];
  let d = top;
  for (const part of rel.split(sep)) dirs.push(d = join(d, part));
  return dirs;
}

const MAX_LINKS = 40;

/**
 * Where a path lands: its real path when it exists; otherwise the real path of its nearest existing ancestor
 * with the rest appended, following symlinks on the way, dangling ones included (writing through a dangling
 * symlink creates its target).
 */
async function landing(path: string, hops = { n: 0 }): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch { /* missing, dangling or unreadable: resolve it step by step */ }
  const parent = dirname(path);
  if (parent === path) return path;
  const here = join(await landing(parent, hops), basename(path));
  const target = await Deno.readLink(here).catch(() => undefined);
  if (target === undefined) return here;
  if (++hops.n > MAX_LINKS) throw new ToolError(`Too many levels of symbolic links at ${path}`);
  return await landing(resolve(dirname(here), target), hops);
}

/** How many names an existing regular file has (1 when it does not exist or is not a file). */
async function hardLinks(path: string): Promise<number> {
  const info = await Deno.stat(path).catch(() => null);
  return info?.isFile ? info.nlink ?? 1 : 1;
}

/**
 * Resolve a path given by the model against the workspace, following `..` and symlinks (also for paths
 * that do not exist yet, and dangling symlinks). A path outside the workspace needs `ctx.confirm`; when
 * refused, throws a ToolError for the model. With `write`, an existing file with more than one hard link is
 * treated as outside too: another of its names may be outside the workspace.
 */
export async function resolveInWorkspace(
  ctx: ToolContext,
  path: string,
  opts: { write?: boolean } = {},
): Promise<string> {
  const absolute = resolve(ctx.workspace, path);
  const real = await landing(absolute);
  const root = await landing(resolve(ctx.workspace));
  const links = opts.write ? await hardLinks(real) : 1;
  if (isInside(root, real) && links === 1) return absolute;
  if (!opts.write) {
    for (const extra of ctx.readable ?? []) if (isInside(await landing(extra), real)) return absolute;
  }
  const why = links > 1
    ? `${real} has ${links} hard links, so it may also be a file outside the workspace`
    : real;
  const allowed = await ctx.confirm({ detail: why });
  if (!allowed) {
    throw new ToolError(
      links > 1
        ? `Path ${JSON.stringify(path)} is a file with ${links} hard links; writing it may change a file ` +
          `outside the workspace, so it needs approval`
        : `Path ${
          JSON.stringify(path)
        } resolves outside the workspace (${real}); only paths inside ${root} ` +
          `are allowed`,
    );
  }
  return absolute;
}

/** Show a path relative to the workspace when it is inside it. */
export function displayPath(workspace: string, path: string): string {
  const rel = relative(workspace, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
