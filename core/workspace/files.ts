import { join, relative } from "node:path";

/** Translate a glob (`*`, `**`, `?`, `{a,b}`, `[...]`) into an anchored RegExp over `/`-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slashAfter = glob[i + 2] === "/";
        re += slashAfter ? "(?:.*/)?" : ".*";
        i += slashAfter ? 2 : 1;
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "{") {
      inGroup++;
      re += "(?:";
    } else if (c === "}" && inGroup) {
      inGroup--;
      re += ")";
    } else if (c === "," && inGroup) re += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += "[" + glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\") + "]";
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** Whether the first 8 KiB of `bytes` look binary (a NUL byte). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

const SKIP_DIRS = new Set([".git"]);

/** Walk files below `root` (no symlink following, `.git` skipped); yields paths relative to `root`. */
export async function* walkFiles(root: string, signal?: AbortSignal): AsyncGenerator<string> {
  const stack = [root];
  while (stack.length) {
    if (signal?.aborted) return;
    const dir = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [];
      for await (const e of Deno.readDir(dir)) entries.push(e);
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : -1));
    const files: string[] = [];
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory) {
        if (!SKIP_DIRS.has(e.name)) stack.push(full);
      } else if (e.isFile) files.push(full);
    }
    for (const f of files.reverse()) yield relative(root, f).split("\\").join("/");
  }
}
