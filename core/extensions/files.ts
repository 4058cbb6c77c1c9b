// Reading extension files safely: size limits, and project files that may not point outside their project.
import { join, relative } from "node:path";
import type { ProjectFolder } from "../project/mod.ts";

/** The largest command or SKILL.md file navi reads. */
export const MAX_EXTENSION_BYTES = 256 * 1024;

/** Whether `path` (real) lies inside `root` (real). */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}

/**
 * Why `path` (a file or folder in `folder`) may not be read, or undefined when it may: a project's file whose
 * real path (symlinks followed) is outside the project root is refused.
 */
export function outsideProject(folder: ProjectFolder, path: string): string | undefined {
  if (folder.level !== "project" || !folder.root) return undefined;
  try {
    const real = Deno.realPathSync(path);
    const root = Deno.realPathSync(folder.root);
    return inside(root, real) ? undefined : `points outside the repository (to ${real}); skipped`;
  } catch {
    return "cannot be resolved; skipped";
  }
}

/** Read a text file of at most MAX_EXTENSION_BYTES; throws an Error whose message is one line. */
export async function readExtensionFile(path: string): Promise<string> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new Error(`${path}: not a file; skipped`);
  if (info.size > MAX_EXTENSION_BYTES) {
    throw new Error(`${path}: ${info.size} bytes is over the ${MAX_EXTENSION_BYTES}-byte limit; skipped`);
  }
  return await Deno.readTextFile(path);
}

/** Files under `dir` whose names end with `ext`, as paths relative to it (sorted; at most `limit`, depth 6). */
export function listFiles(dir: string, opts: { ext: string; limit?: number }): string[] {
  const out: string[] = [];
  const walk = (rel: string, depth: number) => {
    if (depth > 6 || out.length >= (opts.limit ?? 1000)) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(dir, rel))].sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      let isDir = e.isDirectory;
      let isFile = e.isFile;
      if (e.isSymlink) {
        try {
          const info = Deno.statSync(join(dir, path));
          isDir = info.isDirectory;
          isFile = info.isFile;
        } catch { /* a dangling link */ }
      }
      if (isDir) walk(path, depth + 1);
      else if (isFile && e.name.endsWith(opts.ext)) out.push(path);
    }
  };
  walk("", 0);
  return out;
}
