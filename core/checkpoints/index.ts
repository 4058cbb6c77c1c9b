// The workspace as checkpoints last saw it: for each kept file its size, times, inode, mode and content hash.
// A file whose size, times and inode are unchanged is not read again.
import { join } from "node:path";
import type { IgnoreRules } from "./ignore.ts";
import type { CheckpointStore, FileVersion } from "./store.ts";

/** One file as last seen. */
export interface FileState {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  /** Its content as kept (hash and mode), or why it is not kept. */
  version: FileVersion;
  /** Seen within a few milliseconds of its last change: look at its content again next time. */
  racy?: boolean;
}

/** A file that changed between two looks. */
export interface FileChange {
  path: string;
  before: FileVersion | null;
  after: FileVersion | null;
}

/** What the index needs besides the workspace root. */
export interface IndexOptions {
  rules: IgnoreRules;
  store: CheckpointStore;
  /** Files larger than this are not kept (their changes are reported as not kept). */
  maxFileBytes: number;
}

type SavedEntry = [string, number, number, number, number, FileVersion];

const RACY_MS = 20;

/** The workspace has more files than checkpoints look at (`checkpoints.max_files`). */
export class TooManyFiles extends Error {}

const sameVersion = (a: FileVersion | null, b: FileVersion | null) =>
  a === null || b === null
    ? a === b
    : "hash" in a && "hash" in b
    ? a.hash === b.hash && a.mode === b.mode
    : false;

/** The kept files of one workspace (relative paths, `/`-separated) and how to bring them up to date. */
export class WorkspaceIndex {
  /** The files as last seen. */
  readonly files = new Map<string, FileState>();
  /** Ignored paths that changed (seen through the file watcher), for the "not kept" line. */
  readonly ignoredChanged = new Set<string>();
  #root: string;
  #opts: IndexOptions;

  /** An empty index of the workspace `root` (a real path). */
  constructor(root: string, opts: IndexOptions) {
    this.#root = root;
    this.#opts = opts;
  }

  /** The version of `rel` as last seen, if `info` (from lstat) shows it unchanged since; else undefined. */
  unchanged(rel: string, info: Deno.FileInfo): FileVersion | undefined {
    const s = this.files.get(rel);
    if (!s || s.racy || s.size !== info.size || s.ino !== (info.ino ?? 0)) return undefined;
    if (s.mtime !== (info.mtime?.getTime() ?? 0) || s.ctime !== (info.ctime?.getTime() ?? 0)) {
      return undefined;
    }
    return s.version;
  }

  /** Note what a file is now, its content already kept by the caller (a declared write). */
  record(rel: string, info: Deno.FileInfo, version: FileVersion): void {
    const mtime = info.mtime?.getTime() ?? 0;
    const ctime = info.ctime?.getTime() ?? 0;
    const racy = Date.now() - Math.max(mtime, ctime) < RACY_MS;
    this.files.set(rel, {
      size: info.size,
      mtime,
      ctime,
      ino: info.ino ?? 0,
      version,
      ...(racy ? { racy } : {}),
    });
  }

  /** Look at one file (`info` from lstat); returns its change, if its content or mode changed. */
  observe(rel: string, info: Deno.FileInfo, opts: { donor?: DonorIndex } = {}): FileChange | undefined {
    const prev = this.files.get(rel);
    const stat = {
      size: info.size,
      mtime: info.mtime?.getTime() ?? 0,
      ctime: info.ctime?.getTime() ?? 0,
      ino: info.ino ?? 0,
    };
    const same = (s: FileState | undefined) =>
      s && !s.racy && s.size === stat.size && s.mtime === stat.mtime && s.ctime === stat.ctime &&
      s.ino === stat.ino;
    if (same(prev)) return undefined;
    const racy = Date.now() - Math.max(stat.mtime, stat.ctime) < RACY_MS;
    const mode = (info.mode ?? 0o644) & 0o777;
    const donated = !prev && opts.donor ? opts.donor.take(rel, stat) : undefined;
    const version = donated ?? this.#keep(rel, { size: stat.size, mode });
    this.files.set(rel, { ...stat, version, ...(racy ? { racy } : {}) });
    const before = prev?.version ?? null;
    if (prev && sameVersion(before, version)) return undefined;
    return { path: rel, before, after: version };
  }

  #keep(rel: string, file: { size: number; mode: number }): FileVersion {
    if (file.size > this.#opts.maxFileBytes) return { skip: "size" };
    if (!this.#opts.store.fits(file.size)) return { skip: "cap" };
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(join(this.#root, rel));
    } catch {
      return { skip: "unreadable" };
    }
    const hash = this.#opts.store.put(bytes);
    return hash ? { hash, mode: file.mode } : { skip: "cap" };
  }

  /** A kept file is gone (deleted, or now a link or a folder). */
  #gone(rel: string, out: FileChange[]): void {
    const prev = this.files.get(rel);
    if (!prev) return;
    this.files.delete(rel);
    out.push({ path: rel, before: prev.version, after: null });
  }

  /** Whether `rel` exists on disk in any form (a kept file that vanished from a walk may just be ignored now). */
  #exists(rel: string): boolean {
    try {
      Deno.lstatSync(join(this.#root, rel));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Walk `under` (a relative folder, "" for the whole workspace) and bring the index up to date: files new or
   * changed are kept, files gone are reported deleted. `pause` is awaited now and then (the first look runs
   * in the background), `donor` lends hashes of files unchanged since another session saw them.
   */
  async walk(
    under: string,
    opts: { pause?: () => Promise<void>; donor?: DonorIndex; maxFiles?: number } = {},
  ): Promise<FileChange[]> {
    const out: FileChange[] = [];
    const seen = new Set<string>();
    const stack = [under];
    let since = performance.now();
    while (stack.length) {
      const dir = stack.pop()!;
      let entries: Deno.DirEntry[];
      try {
        entries = [...Deno.readDirSync(dir ? join(this.#root, dir) : this.#root)];
      } catch {
        continue;
      }
      for (const e of entries) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory) {
          if (!this.#opts.rules.skipsEntry(rel, true)) stack.push(rel);
        } else if (e.isFile && !this.#opts.rules.skipsEntry(rel, false)) {
          seen.add(rel);
          if (opts.maxFiles !== undefined && seen.size > opts.maxFiles) {
            throw new TooManyFiles(
              `the workspace has more than ${opts.maxFiles} files (checkpoints.max_files)`,
            );
          }
          const info = lstat(join(this.#root, rel));
          const change = info?.isFile ? this.observe(rel, info, opts) : undefined;
          if (change) out.push(change);
        }
      }
      if (opts.pause && performance.now() - since > 8) {
        await opts.pause();
        since = performance.now();
      }
    }
    const prefix = under ? under + "/" : "";
    for (const rel of [...this.files.keys()]) {
      if (seen.has(rel) || (prefix && !rel.startsWith(prefix))) continue;
      if (this.#exists(rel) && lstat(join(this.#root, rel))?.isFile) this.files.delete(rel);
      else this.#gone(rel, out);
    }
    return out;
  }

  /**
   * Look again at `paths` (relative; reported by the file watcher): files are compared, folders walked, and
   * kept files at or below a path that is gone are reported deleted. Ignored paths are noted, not kept.
   */
  async paths(paths: Iterable<string>): Promise<FileChange[]> {
    const out: FileChange[] = [];
    for (const rel of new Set(paths)) {
      this.#opts.rules.forget(rel);
      const info = lstat(join(this.#root, rel));
      if (this.#opts.rules.ignored(rel, info?.isDirectory ?? false)) {
        if (info?.isFile && !this.files.has(rel) && !this.#opts.rules.own(rel)) this.ignoredChanged.add(rel);
        for (const k of [...this.files.keys()]) {
          if (k === rel || k.startsWith(rel + "/")) this.files.delete(k);
        }
        continue;
      }
      if (info?.isDirectory) out.push(...await this.walk(rel));
      else if (info?.isFile) {
        const change = this.observe(rel, info);
        if (change) out.push(change);
      } else {
        this.#gone(rel, out);
        for (const k of [...this.files.keys()]) if (k.startsWith(rel + "/")) this.#gone(k, out);
      }
    }
    return out;
  }

  /**
   * Look again at files seen within milliseconds of a change (their recorded content may predate a change in
   * the same millisecond), so that the index can be saved whole. Changes found are not anyone's: just noted.
   */
  recheckRacy(): void {
    for (const [rel, s] of this.files) {
      if (!s.racy) continue;
      const info = lstat(join(this.#root, rel));
      if (info?.isFile) this.observe(rel, info);
      else this.files.delete(rel);
    }
  }

  /** Note which of `paths` (reported by the watch, not looked at) are ignored files, for the "not kept" line. */
  noteIgnored(paths: string[]): void {
    for (const rel of paths) {
      if (this.#opts.rules.own(rel) || !this.#opts.rules.ignored(rel, false)) continue;
      if (lstat(join(this.#root, rel))?.isFile) this.ignoredChanged.add(rel);
    }
  }

  /** The index as `index.json` keeps it. */
  toJSON(): { version: 1; files: SavedEntry[] } {
    const files: SavedEntry[] = [];
    for (const [rel, s] of this.files) {
      if (!s.racy) files.push([rel, s.size, s.mtime, s.ctime, s.ino, s.version]);
    }
    return { version: 1, files };
  }
}

/** Hashes of an earlier look (this session's, or another session's of the same workspace), lent to a walk. */
export class DonorIndex {
  #files = new Map<string, SavedEntry>();
  #lend: (hash: string, size: number) => boolean;

  /** Entries from a saved `index.json`; `lend(hash, size)` says whether the store has that content. */
  constructor(saved: unknown, lend: (hash: string, size: number) => boolean) {
    this.#lend = lend;
    const files = (saved as { version?: number; files?: unknown })?.files;
    if ((saved as { version?: number })?.version !== 1 || !Array.isArray(files)) return;
    for (const e of files) {
      if (Array.isArray(e) && e.length === 6 && typeof e[0] === "string") {
        this.#files.set(e[0], e as SavedEntry);
      }
    }
  }

  /** The version of `rel` when it is unchanged since the earlier look and its content could be lent. */
  take(
    rel: string,
    stat: { size: number; mtime: number; ctime: number; ino: number },
  ): FileVersion | undefined {
    const e = this.#files.get(rel);
    if (!e || e[1] !== stat.size || e[2] !== stat.mtime || e[3] !== stat.ctime || e[4] !== stat.ino) return;
    const v = e[5];
    if (!v || typeof v !== "object" || !("hash" in v) || typeof v.hash !== "string") return undefined;
    return this.#lend(v.hash, stat.size) ? v : undefined;
  }
}

function lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}
