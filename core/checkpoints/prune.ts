// Housekeeping across sessions: old sessions' stores are deleted past a limit, and a new session's store
// borrows (hard links) unchanged contents from the newest store of the same workspace.
import { join } from "node:path";
import { sessionInUse } from "../session/mod.ts";
import { CheckpointStore, storeDir } from "./store.ts";

/** Session ids that have a checkpoint store, newest first (ids start with their creation time). */
function storedSessions(home: string): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(join(home, "sessions"))) {
      if (!e.isDirectory || !/^[A-Za-z0-9_-]+$/.test(e.name)) continue;
      try {
        if (Deno.statSync(storeDir(home, e.name)).isDirectory) out.push(e.name);
      } catch { /* a session folder without a store (saved outputs only) */ }
    }
  } catch { /* no sessions yet */ }
  return out.sort().reverse();
}

/**
 * Delete the checkpoint stores of all but the `keep` newest sessions (the session files stay, and a store
 * whose session is open in a live navi process is never deleted). Returns the ids whose stores went.
 */
export function pruneStores(home: string, opts: { keep: number; current?: string }): string[] {
  const ids = storedSessions(home).filter((id) => id !== opts.current);
  const old = ids.slice(Math.max(0, opts.keep - (opts.current ? 1 : 0)));
  const removed: string[] = [];
  for (const id of old) {
    if (sessionInUse(home, id)) continue;
    try {
      Deno.removeSync(storeDir(home, id), { recursive: true });
      removed.push(id);
    } catch { /* removed meanwhile, or not ours to remove */ }
  }
  return removed;
}

/** The newest other session's store that looked at the workspace `root` (for hard links), if any. */
export function findDonor(home: string, opts: { except: string; root: string }): CheckpointStore | undefined {
  for (const id of storedSessions(home).slice(0, 20)) {
    if (id === opts.except) continue;
    const store = new CheckpointStore(storeDir(home, id));
    const seen = store.readJson("workspace.json") as { root?: string } | undefined;
    if (seen?.root !== opts.root) continue;
    try {
      if (Deno.statSync(join(store.dir, "index.json")).isFile) return store;
    } catch { /* no index saved */ }
  }
  return undefined;
}

/**
 * Give the fork `to` of session `from` the checkpoints of its history: the change records up to the end of
 * turn `turn` (all without), and the contents, their packs hard-linked. Returns the records copied; a
 * missing store copies nothing.
 */
export function copyStore(home: string, opts: { from: string; to: string; turn?: number }): number {
  const source = new CheckpointStore(storeDir(home, opts.from));
  const target = new CheckpointStore(storeDir(home, opts.to));
  let log;
  try {
    log = source.readLog();
  } catch {
    return 0;
  }
  const kept = log.changes.filter((c) => opts.turn === undefined || c.n <= opts.turn);
  if (!kept.length) return 0;
  target.linkPacks(source);
  target.append(kept);
  return kept.length;
}
