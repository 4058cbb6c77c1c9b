// The process table as navi needs it to stop what it started: who is whose child, which group, and when each
// process started (so that a pid the kernel gave to another process since is never signalled).

/** One process. */
export interface ProcInfo {
  /** Its id. */
  pid: number;
  /** Its parent's id. */
  ppid: number;
  /** Its process group. */
  pgid: number;
  /** When it started, in the system's own unit (clock ticks since boot on Linux): compare, never compute. */
  start: string;
  /** A zombie: it has ended and waits for its parent to collect its status. */
  zombie: boolean;
}

/** Parse one `/proc/<pid>/stat` line (the command name may hold spaces and parentheses). */
export function parseStat(line: string): ProcInfo | undefined {
  const close = line.lastIndexOf(")");
  const pid = Number.parseInt(line, 10);
  if (close < 0 || !Number.isInteger(pid)) return undefined;
  const f = line.slice(close + 2).split(" ");
  const ppid = Number(f[1]);
  const pgid = Number(f[2]);
  if (!Number.isInteger(ppid) || !Number.isInteger(pgid) || !f[19]) return undefined;
  return { pid, ppid, pgid, start: f[19], zombie: f[0] === "Z" };
}

function linuxInfo(pid: number): ProcInfo | undefined {
  try {
    return parseStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return undefined;
  }
}

function psTable(pid?: number): ProcInfo[] {
  try {
    const args = [
      "-o",
      "pid=,ppid=,pgid=,stat=,lstart=",
      ...(pid === undefined ? ["-A"] : ["-p", String(pid)]),
    ];
    const out = new Deno.Command("ps", { args, stdout: "piped", stderr: "null" }).outputSync();
    return new TextDecoder().decode(out.stdout).split("\n").flatMap((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
      return m ? [{ pid: +m[1], ppid: +m[2], pgid: +m[3], start: m[5], zombie: m[4].startsWith("Z") }] : [];
    });
  } catch {
    return [];
  }
}

/** The process `pid`, or undefined when there is none. */
export function procInfo(pid: number): ProcInfo | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (Deno.build.os === "linux") return linuxInfo(pid);
  return psTable(pid)[0];
}

/** Every process this user can see. */
export function processTable(): ProcInfo[] {
  if (Deno.build.os !== "linux") return psTable();
  const out: ProcInfo[] = [];
  try {
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      const info = linuxInfo(Number(e.name));
      if (info) out.push(info);
    }
  } catch { /* no /proc: nothing to see */ }
  return out;
}

/** Whether `pid` is the very process that started at `start` and has not ended. */
export function sameProcess(pid: number, start: string): boolean {
  const info = procInfo(pid);
  return info !== undefined && !info.zombie && info.start === start;
}

/** Every descendant of `pid` in `table` (children, their children, ...). */
export function descendants(pid: number, table: ProcInfo[]): ProcInfo[] {
  const byParent = new Map<number, ProcInfo[]>();
  for (const p of table) byParent.set(p.ppid, [...byParent.get(p.ppid) ?? [], p]);
  const out: ProcInfo[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (out.some((p) => p.pid === child.pid)) continue;
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/** Send `signal` to a process or, with a negative id, a process group; false when it is gone. */
export function signal(pid: number, sig: Deno.Signal): boolean {
  try {
    Deno.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** The processes of the group led by `leader` (started at `start`): none when the id now names another group. */
export function groupMembers(leader: number, start: string, table = processTable()): ProcInfo[] {
  const head = table.find((p) => p.pid === leader);
  if (head && head.start !== start) return [];
  return table.filter((p) => p.pgid === leader && !p.zombie);
}

/**
 * Signal a process tree: the group led by `leader` (a detached child: its own group) and every descendant of
 * the leader, which may have left the group (a sandbox's processes run in a session of their own). Returns
 * what was signalled, to be checked again before a later SIGKILL.
 */
export function signalTree(
  leader: { pid: number; start: string },
  sig: Deno.Signal,
  known: ProcInfo[] = [],
): ProcInfo[] {
  const table = processTable();
  const members = groupMembers(leader.pid, leader.start, table);
  const head = table.find((p) => p.pid === leader.pid && p.start === leader.start);
  const tree = head ? descendants(leader.pid, table) : [];
  const targets = [...members, ...tree, ...known.filter((k) => table.some((p) => same(p, k)))];
  if (members.length) signal(-leader.pid, sig);
  const seen = new Set<number>();
  const out: ProcInfo[] = [];
  for (const p of targets) {
    if (seen.has(p.pid) || p.zombie) continue;
    seen.add(p.pid);
    out.push(p);
    signal(p.pid, sig);
  }
  return out;
}

const same = (a: ProcInfo, b: ProcInfo) => a.pid === b.pid && a.start === b.start && !a.zombie;
