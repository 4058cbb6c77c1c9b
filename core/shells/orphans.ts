// The record of every background shell under $NAVI_HOME/shells/, so that one left behind by a navi that
// could not clean up (killed with SIGKILL, a power cut) is found and stopped by the next navi that starts.
import { join } from "node:path";
import { groupMembers, type ProcInfo, procInfo, sameProcess, signalTree } from "./procs.ts";

/** A process identified beyond its pid: the pid and when it started. */
export interface ProcessId {
  /** The pid. */
  pid: number;
  /** Its start time (see ProcInfo.start). */
  start: string;
}

/** What is recorded of one background shell while it may have processes. */
export interface ShellRecord {
  /** The navi process that started it. */
  owner: ProcessId;
  /** The shell's leader (a detached child: its pid is also its process group). */
  leader: ProcessId;
  /** The session it belongs to. */
  session: string;
  /** Its id in the session. */
  id: string;
  /** The command line (shown when it is cleaned up). */
  command: string;
}

/** A shell that the navi that started it left behind, stopped at start-up. */
export interface Orphan {
  /** Its record. */
  record: ShellRecord;
  /** How many of its processes were still running. */
  processes: number;
}

/** The folder of the records. */
export function recordsDir(home: string): string {
  return join(home, "shells");
}

/** This navi process as recorded in each record it writes. */
export function selfId(): ProcessId {
  return { pid: Deno.pid, start: procInfo(Deno.pid)?.start ?? "" };
}

/** Write the record of a shell that has just started; returns its file (removed when the shell is gone). */
export function writeRecord(home: string, record: ShellRecord): string | undefined {
  try {
    const dir = recordsDir(home);
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(
      dir,
      `${record.owner.pid}-${record.leader.pid}-${crypto.randomUUID().slice(0, 8)}.json`,
    );
    Deno.writeTextFileSync(file, JSON.stringify(record) + "\n", { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}

/** Remove a record file; never throws. */
export function removeRecord(file: string | undefined): void {
  if (!file) return;
  try {
    Deno.removeSync(file);
  } catch { /* already gone */ }
}

function readRecord(file: string): ShellRecord | undefined {
  try {
    const r = JSON.parse(Deno.readTextFileSync(file));
    const ok = (p: unknown): p is ProcessId =>
      !!p && typeof p === "object" && Number.isInteger((p as ProcessId).pid) &&
      typeof (p as ProcessId).start === "string";
    return ok(r?.owner) && ok(r?.leader) ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stop the shells whose navi is gone (its pid is free or names a process that started later): SIGTERM to
 * their processes, SIGKILL after `graceMs`, and remove their records. A record of a live navi is left alone;
 * an unreadable one is removed. Costs one failed directory read when there are no records.
 */
export async function cleanOrphans(home: string, opts: { graceMs?: number } = {}): Promise<Orphan[]> {
  const dir = recordsDir(home);
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".json")).map((e) => e.name);
  } catch {
    return [];
  }
  const found: { file: string; record: ShellRecord; signalled: ProcInfo[] }[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const record = readRecord(file);
    if (!record) {
      removeRecord(file);
      continue;
    }
    const owner = record.owner;
    if (owner.start ? sameProcess(owner.pid, owner.start) : procInfo(owner.pid) !== undefined) continue;
    found.push({ file, record, signalled: signalTree(record.leader, "SIGTERM") });
  }
  const waiting = found.filter((f) => f.signalled.length);
  const deadline = Date.now() + (opts.graceMs ?? 2000);
  while (waiting.some((f) => alive(f)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const f of waiting) {
    if (alive(f)) signalTree(f.record.leader, "SIGKILL", f.signalled);
  }
  for (const f of found) removeRecord(f.file);
  return found.filter((f) => f.signalled.length).map((f) => ({
    record: f.record,
    processes: f.signalled.length,
  }));
}

function alive(f: { record: ShellRecord; signalled: ProcInfo[] }): boolean {
  return groupMembers(f.record.leader.pid, f.record.leader.start).length > 0 ||
    f.signalled.some((p) => sameProcess(p.pid, p.start));
}

/** SIGKILL at once (navi is exiting without a chance to wait): the group and the processes signalled before. */
export function killNow(leader: ProcessId, known: ProcInfo[] = []): void {
  signalTree(leader, "SIGKILL", known);
}
