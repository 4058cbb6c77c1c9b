// Which workspace paths checkpoints leave out: `.git`, navi's own folders, and what .gitignore files (and
// .git/info/exclude) ignore, read the way git reads them (a deeper .gitignore overrides a shallower one).
import { join } from "node:path";
import type { Ignore } from "ignore";

type IgnoreFactory = () => Ignore;

/** Load the .gitignore matcher (the `ignore` package, as eslint and others use it); imported on first use. */
export async function loadIgnore(): Promise<IgnoreFactory> {
  const mod = await import("ignore");
  return mod.default as unknown as IgnoreFactory;
}

/** The ignore rules of one workspace; each folder's .gitignore is read once, when a path below it is asked about. */
export class IgnoreRules {
  #root: string;
  #make: IgnoreFactory;
  #levels = new Map<string, Ignore | null>();
  #excluded: string[];

  /** Rules for the workspace `root`; `excluded` are relative folders always left out (navi's home inside it). */
  constructor(root: string, make: IgnoreFactory, opts: { excluded?: string[] } = {}) {
    this.#root = root;
    this.#make = make;
    this.#excluded = opts.excluded ?? [];
  }

  #level(dir: string): Ignore | null {
    const known = this.#levels.get(dir);
    if (known !== undefined) return known;
    const read = (p: string) => {
      try {
        return Deno.readTextFileSync(p);
      } catch {
        return "";
      }
    };
    const base = dir ? join(this.#root, dir) : this.#root;
    const text = (dir ? "" : read(join(this.#root, ".git", "info", "exclude")) + "\n") +
      read(join(base, ".gitignore"));
    const ig = text.trim() ? this.#make().add(text) : null;
    this.#levels.set(dir, ig);
    return ig;
  }

  /** A .gitignore (or .git/info/exclude) may have changed: read it again when next needed. */
  forget(path: string): void {
    if (path === ".gitignore" || path.endsWith("/.gitignore")) {
      this.#levels.delete(path.slice(0, -".gitignore".length).replace(/\/$/, ""));
    }
    if (path === ".git/info/exclude") this.#levels.delete("");
  }

  /** Whether `rel` is `.git` or navi's own, or inside them: left out without a word. */
  own(rel: string): boolean {
    return rel.split("/").includes(".git") ||
      this.#excluded.some((e) => rel === e || rel.startsWith(e + "/"));
  }

  /** Whether `rel` (relative, `/`-separated) itself matches, its ancestors aside. */
  #matches(rel: string, isDir: boolean): boolean {
    const parts = rel.split("/");
    if (this.own(rel)) return true;
    let ignored = false;
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const ig = this.#level(dir);
      if (!ig) continue;
      const sub = parts.slice(i).join("/") + (isDir ? "/" : "");
      const t = ig.test(sub);
      if (t.ignored) ignored = true;
      else if (t.unignored) ignored = false;
    }
    return ignored;
  }

  /** Whether a walk that reached `rel` (its parent not ignored) leaves it out. */
  skipsEntry(rel: string, isDir: boolean): boolean {
    return this.#matches(rel, isDir);
  }

  /** Whether `rel` is left out, its ancestors included (for a path reported by the file watcher). */
  ignored(rel: string, isDir: boolean): boolean {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (this.#matches(parts.slice(0, i).join("/"), true)) return true;
    }
    return this.#matches(rel, isDir);
  }
}
