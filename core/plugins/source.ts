import { createHash } from "node:crypto";
import { join } from "node:path";

/** A plugin on disk: one file, or a folder with `mod.ts`. */
export interface PluginSource {
  /** What messages and `navi plugins` call it: `word_count.ts` or `multi/mod.ts`. */
  name: string;
  /** Its `plugins.<stem>` section in config.json: the file name without extension, or the folder name. */
  stem: string;
  /** The directory its module paths are relative to. */
  root: string;
  /** The entry module, relative to `root`. */
  entry: string;
  /** Display prefix of its modules in errors (`""` for a file, `multi/` for a folder). */
  prefix: string;
  /** Module texts by path relative to `root` (for a folder: every module file in it). */
  files: Map<string, string>;
  /** SHA-256 over the paths and texts of `files`. */
  hash: string;
}

const MODULE = /\.(ts|js|mjs|mts)$/;
const MAX_FILES = 500;

/** The plugins directory under a navi home. */
export function pluginsDir(home: string): string {
  return join(home, "plugins");
}

const visible = (n: string) => !n.startsWith("_") && !n.startsWith(".");

/**
 * Plugin names in load order, sorted: `*.ts`, `*.js`, `*.mjs` files and folders with a `mod.ts` (as
 * `<folder>/mod.ts`); `_`/`.` prefixes and `*.d.ts` are skipped.
 */
export function discoverPlugins(dir: string): string[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!visible(e.name)) continue;
    let isDir = e.isDirectory;
    if (e.isSymlink) isDir = statSafe(join(dir, e.name))?.isDirectory ?? false;
    if (isDir) {
      if (statSafe(join(dir, e.name, "mod.ts"))?.isFile) out.push(`${e.name}/mod.ts`);
    } else if (/\.(ts|js|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(e.name);
  }
  return out.sort();
}

function statSafe(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

async function walk(root: string, rel: string, into: Map<string, string>): Promise<void> {
  const names: Deno.DirEntry[] = [];
  for await (const e of Deno.readDir(join(root, rel))) names.push(e);
  names.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of names) {
    if (!visible(e.name) || e.name === "node_modules") continue;
    const path = rel ? `${rel}/${e.name}` : e.name;
    const info = e.isSymlink ? statSafe(join(root, path)) : e;
    if (info?.isDirectory) await walk(root, path, into);
    else if (info?.isFile && MODULE.test(e.name) && !e.name.endsWith(".d.ts")) {
      if (into.size >= MAX_FILES) throw new Error(`more than ${MAX_FILES} module files in the plugin folder`);
      into.set(path, await Deno.readTextFile(join(root, path)));
    }
  }
}

/** Read one discovered plugin (a file, or every module file of a folder) and hash it. */
export async function readPlugin(dir: string, name: string): Promise<PluginSource> {
  const folder = name.endsWith("/mod.ts") ? name.slice(0, -"/mod.ts".length) : undefined;
  const files = new Map<string, string>();
  let source: Omit<PluginSource, "hash">;
  if (folder) {
    await walk(join(dir, folder), "", files);
    source = { name, stem: folder, root: join(dir, folder), entry: "mod.ts", prefix: `${folder}/`, files };
  } else {
    files.set(name, Deno.readTextFileSync(join(dir, name)));
    source = { name, stem: name.replace(/\.(ts|js|mjs)$/, ""), root: dir, entry: name, prefix: "", files };
  }
  return { ...source, hash: await sha256([...files].map(([p, t]) => `${p}\0${t}`).join("\0\0")) };
}

/** SHA-256 of a text, as hex (node:crypto's, synchronous: a warm start hashes every plugin). */
export function sha256(text: string): Promise<string> {
  return Promise.resolve(createHash("sha256").update(text).digest("hex"));
}
