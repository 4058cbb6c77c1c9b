import process from "node:process";

/** A held lock file; `release` removes it (only while it still names this process). */
export interface HeldLock {
  /** Remove the lock file if it is still this process's. Safe to call twice. */
  release(): void;
}

/** Whether a process with this id exists (a process of another user counts as existing). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === "EPERM";
  }
}

function holder(path: string): number | undefined {
  try {
    const pid = JSON.parse(Deno.readTextFileSync(path)).pid;
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(path: string): boolean {
  try {
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ pid: Deno.pid, at: new Date().toISOString() }) + "\n",
      { createNew: true, mode: 0o600 },
    );
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return false;
    throw err;
  }
}

/**
 * Take the lock file `path` for this process: created atomically with our pid. A lock whose process is gone
 * (stale: a crash) or that is unreadable is taken over; one held by this process is shared with it.
 * Returns `{ heldBy }` when another live process holds it.
 */
export function acquireLock(path: string): HeldLock | { heldBy: number } {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) {
      let held = true;
      return {
        release() {
          if (held && holder(path) === Deno.pid) Deno.removeSync(path);
          held = false;
        },
      };
    }
    const pid = holder(path);
    if (pid === Deno.pid) return { release() {} };
    if (pid !== undefined && processAlive(pid)) return { heldBy: pid };
    try {
      Deno.removeSync(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  const pid = holder(path);
  return { heldBy: pid ?? 0 };
}

/** Whether the session file `file` is open in a live navi process other than this one. */
export function inUse(file: string): boolean {
  const pid = holder(`${file}.lock`);
  return pid !== undefined && pid !== Deno.pid && processAlive(pid);
}
