// Workspace trust: what a project folder would run, a hash of it, and `$NAVI_HOME/trust.json` with the answers.
import { join } from "node:path";

/** One thing from a project that runs code or widens permissions, as the trust prompt lists it. */
export interface TrustItem {
  /** What it is: `MCP server`, `plugin`, `allow rule`, `command`, `hook`, ... */
  kind: string;
  /** Exactly what would run or be allowed: a command line, a plugin file, a rule. */
  what: string;
  /** The file it comes from (absolute); its whole content is part of the trust hash. */
  file: string;
  /** A short name for one-line summaries (a server's or command's name); default: `what`. */
  name?: string;
}

/** A folder's trust as stored: trusted, or refused, for the files as they were when answered. */
export interface TrustRecord {
  /** The answer. */
  trusted: boolean;
  /** The hash of what would run when it was answered. */
  hash: string;
  /** When (ISO time). */
  at: string;
}

/** Where a folder stands: nothing to trust, never asked, changed since answered, trusted or refused. */
export type TrustState = "none" | "new" | "changed" | "trusted" | "refused";

/** SHA-256 over the items and the content of every file they name, stable in the order of the items. */
export async function trustHash(items: readonly TrustItem[]): Promise<string> {
  const files = [...new Set(items.map((i) => i.file))].sort();
  const parts = items.map((i) => `${i.kind}\0${i.what}\0${i.file}`).sort();
  for (const file of files) {
    let content: string;
    try {
      content = await Deno.readTextFile(file);
    } catch {
      content = "(unreadable)";
    }
    parts.push(`${file}\0${content}`);
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("\0\0")));
  return new Uint8Array(digest).toHex();
}

/** The trust answers of one navi home: `$NAVI_HOME/trust.json`, keyed by each folder's real path. */
export class TrustStore {
  /** `$NAVI_HOME/trust.json`. */
  readonly file: string;

  /** The store under navi's home `home`. */
  constructor(home: string) {
    this.file = join(home, "trust.json");
  }

  /** Every stored answer by folder; an unreadable file counts as empty (nothing is trusted). */
  list(): Record<string, TrustRecord> {
    try {
      const raw = JSON.parse(Deno.readTextFileSync(this.file));
      const folders = raw?.folders;
      if (!folders || typeof folders !== "object") return {};
      const out: Record<string, TrustRecord> = {};
      for (const [path, r] of Object.entries(folders as Record<string, TrustRecord>)) {
        if (r && typeof r.trusted === "boolean" && typeof r.hash === "string") out[path] = r;
      }
      return out;
    } catch {
      return {};
    }
  }

  /** The stored answer for folder `root` (matched by real path). */
  get(root: string): TrustRecord | undefined {
    return this.list()[realPath(root)];
  }

  /** Where folder `root` stands for what would run now (`hash`; `undefined`: nothing would run). */
  state(root: string, hash: string | undefined): TrustState {
    if (hash === undefined) return "none";
    const r = this.get(root);
    if (!r) return "new";
    if (r.hash !== hash) return "changed";
    return r.trusted ? "trusted" : "refused";
  }

  /** Store an answer for `root` (atomically: a temp file renamed over trust.json, mode 0600). */
  set(root: string, answer: { trusted: boolean; hash: string }): void {
    const folders = this.list();
    folders[realPath(root)] = { ...answer, at: new Date().toISOString() };
    this.#write(folders);
  }

  /** Forget the answer for `root`; returns whether there was one. */
  remove(root: string): boolean {
    const folders = this.list();
    const key = realPath(root);
    if (!(key in folders)) return false;
    delete folders[key];
    this.#write(folders);
    return true;
  }

  #write(folders: Record<string, TrustRecord>): void {
    const dir = join(this.file, "..");
    Deno.mkdirSync(dir, { recursive: true });
    const tmp = `${this.file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    Deno.writeTextFileSync(tmp, JSON.stringify({ version: 1, folders }, null, 2) + "\n", { mode: 0o600 });
    Deno.renameSync(tmp, this.file);
  }
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}
