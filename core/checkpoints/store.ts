// A session's checkpoint store: content-addressed objects (sha-256, written once, deduplicated) and an
// append-only log of the file changes made after each checkpoint.
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";

/** A file as a checkpoint keeps it: its content's hash and mode, or why its content was not kept. */
export type FileVersion = { hash: string; mode: number } | { skip: SkipReason };

/** Why a file's content is not in the store. */
export type SkipReason = "size" | "cap" | "ignored" | "unreadable";

/** One file changed after checkpoint `n`: what it was before (`null`: absent) and after. */
export interface ChangeRecord {
  /** The checkpoint the change belongs to (the turn, or the rewind, it was made in). */
  n: number;
  /** The path relative to the workspace, `/`-separated. */
  path: string;
  /** The file before the change; `null` when it did not exist. */
  before: FileVersion | null;
  /** The file after the change; `null` when it was deleted. */
  after: FileVersion | null;
  /** The tool that made it (or `rewind`). */
  by: string;
}

/** What the log of a store holds. */
export interface StoreLog {
  /** Every change, in order. */
  changes: ChangeRecord[];
  /** 1-based numbers of lines that could not be read. */
  bad: number[];
  /** The log file does not exist (nothing recorded yet, or the store was deleted). */
  missing: boolean;
}

/** The store is missing or damaged; the message is one line naming it. */
export class StoreError extends Error {}

/** The sha-256 of `bytes`, as lower-case hex. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** `sessions/<id>/checkpoints` under navi's home. */
export function storeDir(home: string, sessionId: string): string {
  return join(home, "sessions", sessionId, "checkpoints");
}

/**
 * The checkpoint store of one session: `objects/<2 hex>/<62 hex>` hold file contents by sha-256 (one copy of
 * each content, read-only once written, hard-linked from another session's store when it has the content);
 * `log.jsonl` the changes; `index.json` the workspace as last seen (sizes, times and hashes), which spares
 * the next process of this workspace reading unchanged files again.
 */
export class CheckpointStore {
  /** The store's folder. */
  readonly dir: string;
  #capBytes: number;
  #bytes?: number;
  #known = new Set<string>();
  #dirs = new Set<string>();

  /** A store in `dir` (created on the first write) that keeps at most `capBytes` of contents. */
  constructor(dir: string, opts: { capBytes?: number } = {}) {
    this.dir = dir;
    this.#capBytes = opts.capBytes ?? Infinity;
  }

  /** The file that holds the content with this hash. */
  objectPath(hash: string): string {
    return join(this.dir, "objects", hash.slice(0, 2), hash.slice(2));
  }

  /** Whether the store's folder exists. */
  exists(): boolean {
    try {
      return Deno.statSync(this.dir).isDirectory;
    } catch {
      return false;
    }
  }

  /** Bytes of content the store holds (counted once, on first use, then kept up to date). */
  bytes(): number {
    if (this.#bytes !== undefined) return this.#bytes;
    let total = 0;
    try {
      for (const a of Deno.readDirSync(join(this.dir, "objects"))) {
        for (const b of Deno.readDirSync(join(this.dir, "objects", a.name))) {
          total += Deno.statSync(join(this.dir, "objects", a.name, b.name)).size;
        }
      }
    } catch { /* no objects yet */ }
    return (this.#bytes = total);
  }

  /** Whether `more` bytes still fit under the cap. */
  fits(more: number): boolean {
    return this.bytes() + more <= this.#capBytes;
  }

  /**
   * Keep `bytes` and return their hash; undefined when they would pass the store's cap. An existing object is
   * not written again; `donor` (another session's store) is asked first for a hard link instead of a copy.
   */
  put(bytes: Uint8Array, opts: { hash?: string; donor?: CheckpointStore } = {}): string | undefined {
    const hash = opts.hash ?? hashBytes(bytes);
    if (this.has(hash)) return hash;
    if (!this.fits(bytes.length)) return undefined;
    const path = this.objectPath(hash);
    this.#mkdir(dirname(path));
    if (!opts.donor || !this.#linkFrom(opts.donor, hash)) {
      const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
      Deno.writeFileSync(tmp, bytes, { mode: 0o400 });
      Deno.renameSync(tmp, path);
    }
    this.#bytes = this.bytes() + bytes.length;
    this.#known.add(hash);
    return hash;
  }

  /** Keep the object `hash` by a hard link to `donor`'s copy, without reading it; false when that fails. */
  linkObject(donor: CheckpointStore, hash: string, size: number): boolean {
    if (this.has(hash)) return true;
    if (!this.fits(size)) return false;
    this.#mkdir(dirname(this.objectPath(hash)));
    if (!this.#linkFrom(donor, hash)) return false;
    this.#bytes = this.bytes() + size;
    this.#known.add(hash);
    return true;
  }

  #mkdir(dir: string): void {
    if (this.#dirs.has(dir)) return;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#dirs.add(dir);
  }

  #linkFrom(donor: CheckpointStore, hash: string): boolean {
    try {
      Deno.linkSync(donor.objectPath(hash), this.objectPath(hash));
      return true;
    } catch (err) {
      return err instanceof Deno.errors.AlreadyExists;
    }
  }

  /** Whether the object `hash` is in the store. */
  has(hash: string): boolean {
    if (this.#known.has(hash)) return true;
    try {
      Deno.lstatSync(this.objectPath(hash));
      this.#known.add(hash);
      return true;
    } catch {
      return false;
    }
  }

  /** The content with this hash; throws a StoreError when it is missing or does not match its hash. */
  get(hash: string): Uint8Array {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(this.objectPath(hash));
    } catch {
      throw new StoreError(`object ${hash.slice(0, 12)} is missing from ${this.dir}`);
    }
    if (hashBytes(bytes) !== hash) {
      throw new StoreError(`object ${hash.slice(0, 12)} in ${this.dir} is damaged (its content changed)`);
    }
    return bytes;
  }

  /** Append change records to the log. */
  append(records: ChangeRecord[]): void {
    if (!records.length) return;
    this.#mkdir(this.dir);
    const text = records.map((r) => JSON.stringify({ type: "change", ...r }) + "\n").join("");
    Deno.writeTextFileSync(join(this.dir, "log.jsonl"), text, { append: true, mode: 0o600 });
  }

  /** Read the log back: the changes, and the lines that could not be read. */
  readLog(): StoreLog {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(this.dir, "log.jsonl"));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return { changes: [], bad: [], missing: true };
      throw new StoreError(`${join(this.dir, "log.jsonl")} cannot be read (${(err as Error).message})`);
    }
    const changes: ChangeRecord[] = [];
    const bad: number[] = [];
    text.split("\n").forEach((line, i) => {
      if (!line.trim()) return;
      try {
        const r = JSON.parse(line);
        if (validChange(r)) {
          changes.push({ n: r.n, path: r.path, before: r.before, after: r.after, by: r.by });
        } else bad.push(i + 1);
      } catch {
        bad.push(i + 1);
      }
    });
    return { changes, bad, missing: false };
  }

  /** Write a small JSON file of the store atomically (`index.json`, `workspace.json`). */
  writeJson(name: string, value: unknown): void {
    Deno.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, name);
    const tmp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    Deno.writeTextFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
    Deno.renameSync(tmp, file);
  }

  /** A JSON file of the store, or undefined when it is missing or unreadable. */
  readJson(name: string): unknown {
    try {
      return JSON.parse(Deno.readTextFileSync(join(this.dir, name)));
    } catch {
      return undefined;
    }
  }
}

function validVersion(v: unknown): boolean {
  if (v === null) return true;
  if (!v || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  if (typeof o.skip === "string") return true;
  return typeof o.hash === "string" && /^[0-9a-f]{64}$/.test(o.hash) && typeof o.mode === "number";
}

function validChange(r: Record<string, unknown> | null): r is ChangeRecord & Record<string, unknown> {
  return !!r && r.type === "change" && Number.isInteger(r.n) && typeof r.path === "string" &&
    r.path !== "" && !r.path.split("/").includes("..") && !r.path.startsWith("/") &&
    validVersion(r.before) && validVersion(r.after) && typeof r.by === "string";
}
