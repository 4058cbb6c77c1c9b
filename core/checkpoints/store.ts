// A session's checkpoint store: content-addressed file contents (sha-256, each kept once, in append-only
// packs) and an append-only log of the file changes made after each checkpoint.
import { createHash } from "node:crypto";
import { join } from "node:path";

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

interface Located {
  pack: string;
  offset: number;
  length: number;
}

const PACKS = "packs";

/**
 * The checkpoint store of one session. File contents live in append-only packs (`packs/<name>.pack`, with
 * `packs/<name>.idx` naming each content's sha-256, offset and length): one write per content, each content once.
 * Packs of another session's store are hard-linked rather than copied, so unchanged contents are on disk once
 * across sessions. `log.jsonl` holds the changes; `index.json` the workspace as last seen (sizes, times and
 * hashes), which spares the next process of this workspace reading unchanged files again.
 */
export class CheckpointStore {
  /** The store's folder. */
  readonly dir: string;
  #capBytes: number;
  #objects?: Map<string, Located>;
  #bytes = 0;
  #writer?: { name: string; pack: Deno.FsFile; idx: Deno.FsFile; offset: number };
  #dirs = new Set<string>();
  #readers = new Map<string, Deno.FsFile>();

  /** A store in `dir` (created on the first write) that keeps at most `capBytes` of contents. */
  constructor(dir: string, opts: { capBytes?: number } = {}) {
    this.dir = dir;
    this.#capBytes = opts.capBytes ?? Infinity;
  }

  /** Whether the store's folder exists. */
  exists(): boolean {
    try {
      return Deno.statSync(this.dir).isDirectory;
    } catch {
      return false;
    }
  }

  /** The packs' index, read on first use (lines that cannot be read are skipped). */
  #map(): Map<string, Located> {
    if (this.#objects) return this.#objects;
    this.#objects = new Map();
    try {
      for (const e of Deno.readDirSync(join(this.dir, PACKS))) {
        if (e.name.endsWith(".idx")) this.#readIdx(e.name.slice(0, -".idx".length));
      }
    } catch { /* no packs yet */ }
    return this.#objects;
  }

  #readIdx(pack: string): void {
    let text = "";
    try {
      text = Deno.readTextFileSync(join(this.dir, PACKS, `${pack}.idx`));
    } catch {
      return;
    }
    for (const line of text.split("\n")) {
      const m = /^([0-9a-f]{64}) (\d+) (\d+)$/.exec(line);
      if (!m || this.#objects!.has(m[1])) continue;
      this.#objects!.set(m[1], { pack, offset: Number(m[2]), length: Number(m[3]) });
      this.#bytes += Number(m[3]);
    }
  }

  /** Bytes of content the store holds. */
  bytes(): number {
    this.#map();
    return this.#bytes;
  }

  /** Whether `more` bytes still fit under the cap. */
  fits(more: number): boolean {
    return this.bytes() + more <= this.#capBytes;
  }

  /** Whether the content with this hash is in the store. */
  has(hash: string): boolean {
    return this.#map().has(hash);
  }

  #mkdir(dir: string): void {
    if (this.#dirs.has(dir)) return;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#dirs.add(dir);
  }

  /** Keep `bytes` and return their hash; undefined when they would pass the store's cap. Kept once. */
  put(bytes: Uint8Array, opts: { hash?: string } = {}): string | undefined {
    const hash = opts.hash ?? hashBytes(bytes);
    if (this.has(hash)) return hash;
    if (!this.fits(bytes.length)) return undefined;
    const w = this.#writer ??= this.#openWriter();
    writeAll(w.pack, bytes);
    writeAll(w.idx, new TextEncoder().encode(`${hash} ${w.offset} ${bytes.length}\n`));
    this.#map().set(hash, { pack: w.name, offset: w.offset, length: bytes.length });
    w.offset += bytes.length;
    this.#bytes += bytes.length;
    return hash;
  }

  #openWriter() {
    this.#mkdir(join(this.dir, PACKS));
    const name = `${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
    const open = (ext: string) =>
      Deno.openSync(join(this.dir, PACKS, `${name}.${ext}`), { write: true, createNew: true, mode: 0o600 });
    return { name, pack: open("pack"), idx: open("idx"), offset: 0 };
  }

  /**
   * Make the contents of `donor` (another session's store) available here by hard-linking its packs; returns
   * how many packs were linked (none when links fail, e.g. across file systems).
   */
  linkPacks(donor: CheckpointStore): number {
    let linked = 0;
    let names: string[];
    try {
      names = [...Deno.readDirSync(join(donor.dir, PACKS))].filter((e) => e.name.endsWith(".idx"))
        .map((e) => e.name.slice(0, -".idx".length));
    } catch {
      return 0;
    }
    this.#map();
    this.#mkdir(join(this.dir, PACKS));
    for (const name of names) {
      try {
        for (const ext of ["pack", "idx"]) {
          Deno.linkSync(join(donor.dir, PACKS, `${name}.${ext}`), join(this.dir, PACKS, `${name}.${ext}`));
        }
        this.#readIdx(name);
        linked++;
      } catch { /* already linked, or not linkable */ }
    }
    return linked;
  }

  /** The content with this hash; throws a StoreError when it is missing or does not match its hash. */
  get(hash: string): Uint8Array {
    const at = this.#map().get(hash);
    let bytes: Uint8Array | undefined;
    if (at) {
      try {
        let f = this.#readers.get(at.pack);
        if (!f) this.#readers.set(at.pack, f = Deno.openSync(join(this.dir, PACKS, `${at.pack}.pack`)));
        f.seekSync(at.offset, Deno.SeekMode.Start);
        bytes = new Uint8Array(at.length);
        let got = 0;
        while (got < at.length) {
          const n = f.readSync(bytes.subarray(got));
          if (!n) break;
          got += n;
        }
        if (got < at.length) bytes = undefined;
      } catch {
        bytes = undefined;
      }
    }
    if (!bytes) throw new StoreError(`content ${hash.slice(0, 12)} is missing from ${this.dir}`);
    if (hashBytes(bytes) !== hash) {
      throw new StoreError(
        `content ${hash.slice(0, 12)} in ${this.dir} is damaged (it no longer matches its hash)`,
      );
    }
    return bytes;
  }

  /** Close the packs open for reading and writing (the store stays usable: they open again when needed). */
  close(): void {
    for (const f of this.#readers.values()) f.close();
    this.#readers.clear();
    this.#writer?.pack.close();
    this.#writer?.idx.close();
    this.#writer = undefined;
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
    r.path !== "" && !r.path.startsWith("/") && !r.path.split("/").some((p) => p === ".." || p === ".git") &&
    validVersion(r.before) && validVersion(r.after) && typeof r.by === "string";
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}
