// Going back to the end of a turn: the files (each checked first against what navi left, written atomically)
// and the conversation (a rewrite record, so the session file stays append-only). A rewind is a checkpoint of
// its own, so it can be undone like a turn.
import { basename, dirname, join } from "node:path";
import type { CheckpointRecord, Session } from "../session/mod.ts";
import { isInside } from "../workspace/mod.ts";
import { type ChangeRecord, type CheckpointStore, type FileVersion, hashBytes, StoreError } from "./store.ts";

/** A rewind that cannot be done; the message is one line. */
export class RewindError extends Error {}

/** One checkpoint as `/rewind` and `navi rewind --list` show it. */
export interface TurnRow extends CheckpointRecord {
  /** The files changed after this checkpoint (by the turn, or by the rewind), sorted. */
  files: string[];
}

/** The checkpoints of a session with the files changed after each. */
export function turnRows(checkpoints: CheckpointRecord[], changes: ChangeRecord[]): TurnRow[] {
  const files = new Map<number, Set<string>>();
  for (const c of changes) {
    if (!files.has(c.n)) files.set(c.n, new Set());
    files.get(c.n)!.add(c.path);
  }
  return checkpoints.map((c) => ({ ...c, files: [...(files.get(c.n) ?? [])].sort() }));
}

/** One file a code rewind would restore. */
export interface RestoreFile {
  /** Relative to the workspace. */
  path: string;
  /** What it becomes (`null`: it is removed). */
  target: FileVersion | null;
  /** What navi left (after its last change). */
  left: FileVersion | null;
  /** What is there now (`null`: nothing). */
  now: FileVersion | null;
  /** It was changed since navi left it (by the user or another program): ask before overwriting. */
  changedSince: boolean;
}

const same = (a: FileVersion | null, b: FileVersion | null) =>
  a === null || b === null ? a === b : "hash" in a && "hash" in b && a.hash === b.hash && a.mode === b.mode;

/** A file's version on disk now (its content hashed, not kept), or `null` when there is none. */
function versionNow(full: string): FileVersion | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(full);
  } catch {
    return null;
  }
  if (!info.isFile) return { skip: "unreadable" };
  try {
    return { hash: hashBytes(Deno.readFileSync(full)), mode: (info.mode ?? 0o644) & 0o777 };
  } catch {
    return { skip: "unreadable" };
  }
}

/** Whether writing `rel` stays inside `root` (no folder on its way is a link leading out). */
function staysInside(root: string, rel: string): boolean {
  let dir = dirname(join(root, rel));
  while (isInside(root, dir)) {
    try {
      return isInside(root, Deno.realPathSync(dir));
    } catch {
      dir = dirname(dir);
    }
  }
  return false;
}

/**
 * What restoring the workspace `root` to the end of turn `to` takes: each file changed after checkpoint
 * `to` goes back to what it was before its first change after it. Throws a RewindError (one line, nothing
 * touched) when a content needed is not in the store or is damaged.
 */
export function planCode(
  store: CheckpointStore,
  opts: { root: string; changes: ChangeRecord[]; to: number },
): RestoreFile[] {
  const byPath = new Map<string, ChangeRecord[]>();
  for (const c of opts.changes) {
    if (!byPath.has(c.path)) byPath.set(c.path, []);
    byPath.get(c.path)!.push(c);
  }
  const out: RestoreFile[] = [];
  const problems: string[] = [];
  for (const [path, list] of [...byPath].sort(([a], [b]) => a.localeCompare(b))) {
    const first = list.find((c) => c.n > opts.to);
    if (!first) continue;
    const target = first.before;
    const left = list.at(-1)!.after;
    if (!staysInside(opts.root, path)) {
      problems.push(`${path} (a folder on its path leads outside the workspace)`);
      continue;
    }
    const now = versionNow(join(opts.root, path));
    if (same(now, target)) continue;
    if (target && "skip" in target) {
      problems.push(`${path} (its content then was not kept: ${target.skip})`);
      continue;
    }
    if (target) {
      try {
        store.get(target.hash);
      } catch (err) {
        problems.push(`${path} (${(err as StoreError).message})`);
        continue;
      }
    }
    out.push({ path, target, left, now, changedSince: !same(now, left) });
  }
  if (problems.length) {
    const shown = problems.slice(0, 3).join("; ") +
      (problems.length > 3 ? ` and ${problems.length - 3} more` : "");
    throw new RewindError(`cannot restore ${shown}; nothing was changed`);
  }
  return out;
}

function writeAtomic(full: string, bytes: Uint8Array, mode: number): void {
  Deno.mkdirSync(dirname(full), { recursive: true });
  const tmp = join(dirname(full), `.${basename(full)}.navi-${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    Deno.writeFileSync(tmp, bytes, { mode });
    Deno.chmodSync(tmp, mode);
    Deno.renameSync(tmp, full);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch { /* not created */ }
    throw err;
  }
}

/**
 * Restore `files` (from `planCode`) in `root`: each written atomically (a temporary file renamed over it)
 * or removed. What is there now is kept in the store first, so that checkpoint `n` (the rewind's) can be
 * undone. Returns the change records of checkpoint `n`.
 */
export function applyCode(
  store: CheckpointStore,
  files: RestoreFile[],
  opts: { root: string; n: number },
): ChangeRecord[] {
  const records: ChangeRecord[] = [];
  for (const f of files) {
    const full = join(opts.root, f.path);
    let before: FileVersion | null = f.now;
    if (f.now && "hash" in f.now) {
      const hash = store.put(Deno.readFileSync(full));
      before = hash ? { hash, mode: f.now.mode } : { skip: "cap" };
    }
    if (f.target && "hash" in f.target) writeAtomic(full, store.get(f.target.hash), f.target.mode);
    else if (f.now) Deno.removeSync(full);
    records.push({ n: opts.n, path: f.path, before, after: f.target, by: "rewind" });
  }
  store.close();
  store.append(records);
  return records;
}

/** What to rewind, and how to ask about files changed since navi left them. */
export interface RewindRequest {
  /** Go back to the end of this turn (0: before the first turn). */
  to: number;
  /** Restore the files. */
  code: boolean;
  /** Drop the conversation after turn `to`. */
  conversation: boolean;
  /** The workspace root (a real path). */
  root: string;
  /** The session's store. */
  store: CheckpointStore;
  /** Asked about each file changed since navi left it; true overwrites it, false keeps it. */
  confirm(file: RestoreFile): Promise<boolean>;
}

/** A rewind as a front asks for it: the turn, what to restore, how to ask (the session supplies the rest). */
export type RewindChoice = Omit<RewindRequest, "root" | "store">;

/** What a rewind did. */
export interface RewindResult {
  /** The rewind's own checkpoint (rewind to `n - 1` to undo it). */
  checkpoint: number;
  /** Files restored. */
  restored: string[];
  /** Files left as they were because the user said no. */
  kept: string[];
  /** Whether the conversation was rewritten. */
  conversation: boolean;
  /** Problems worth a line (damaged log lines). */
  warnings: string[];
}

/** The changes of the store's log, or a RewindError when the store is gone. */
export function readChanges(
  store: CheckpointStore,
  session: string,
): { changes: ChangeRecord[]; warnings: string[] } {
  let log;
  try {
    log = store.readLog();
  } catch (err) {
    throw new RewindError(`the checkpoint store of session ${session} is damaged: ${(err as Error).message}`);
  }
  if (log.missing && !store.exists()) {
    throw new RewindError(
      `the checkpoint store of session ${session} is missing (${store.dir}); its files cannot be rewound`,
    );
  }
  const lines = log.bad.length === 1 ? `line ${log.bad[0]} is` : `lines ${log.bad.join(", ")} are`;
  const warnings = log.bad.length ? [`${store.dir}/log.jsonl: ${lines} damaged and skipped`] : [];
  return { changes: log.changes, warnings };
}

/**
 * Rewind `session` to the end of turn `req.to`: the files (planned and checked before anything is written),
 * then the conversation. The rewind takes a checkpoint first (kind `rewind`), so it can be undone.
 */
export async function rewindSession(session: Session, req: RewindRequest): Promise<RewindResult> {
  try {
    return await rewind(session, req);
  } finally {
    req.store.close();
  }
}

async function rewind(session: Session, req: RewindRequest): Promise<RewindResult> {
  const last = session.checkpoints.at(-1)?.n ?? 0;
  if (!Number.isInteger(req.to) || req.to < 0 || req.to > last) {
    throw new RewindError(`session ${session.meta.id} has turns 0 to ${last}; there is no turn ${req.to}`);
  }
  const result: RewindResult = { checkpoint: 0, restored: [], kept: [], conversation: false, warnings: [] };
  let files: RestoreFile[] = [];
  if (req.code) {
    const { changes, warnings } = readChanges(req.store, session.meta.id);
    result.warnings.push(...warnings);
    files = planCode(req.store, { root: req.root, changes, to: req.to });
    const agreed: RestoreFile[] = [];
    for (const f of files) {
      if (!f.changedSince || await req.confirm(f)) agreed.push(f);
      else result.kept.push(f.path);
    }
    files = agreed;
  }
  const restored = req.code && req.conversation ? "both" : req.code ? "code" : "conversation";
  const mark = session.checkpoint({ kind: "rewind", to: req.to, restored });
  result.checkpoint = mark.n;
  if (files.length) {
    applyCode(req.store, files, { root: req.root, n: mark.n });
    result.restored = files.map((f) => f.path);
  }
  if (req.conversation) {
    session.rewrite({ reason: "rewind", messages: session.conversationAt(req.to + 1) });
    result.conversation = true;
  }
  return result;
}
