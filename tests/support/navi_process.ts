// A navi process to send signals to: live stdout/stderr, a bounded end.
import { MAIN, type RunResult } from "../helpers.ts";

/** A running `deno run -A main.ts ...args`. */
export interface NaviProcess {
  /** The navi process (signals go here). */
  child: Deno.ChildProcess;
  /** stdout so far. */
  stdout(): string;
  /** stderr so far. */
  stderr(): string;
  /** Resolves when the process ended (killed with SIGKILL after `timeoutMs`). */
  done: Promise<RunResult>;
}

/** Start navi with its own NAVI_HOME; stdin is piped when `stdin` is given (and left open: write to it). */
export function spawnNavi(
  args: string[],
  opts: { home: string; cwd?: string; env?: Record<string, string>; stdin?: boolean; timeoutMs?: number },
): NaviProcess & { write(text: string): Promise<void>; end(): Promise<void> } {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd: opts.cwd ?? opts.home,
    env: { NAVI_HOME: opts.home, NO_COLOR: "1", ...opts.env },
    stdin: opts.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  const collect = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    for await (const s of stream.pipeThrough(new TextDecoderStream())) add(s);
  };
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
  const writer = opts.stdin ? child.stdin.getWriter() : undefined;
  const done = (async () => {
    const [status] = await Promise.all([
      child.status,
      collect(child.stdout, (s) => (out += s)),
      collect(child.stderr, (s) => (err += s)),
    ]);
    clearTimeout(timer);
    await writer?.close().catch(() => {});
    return { code: status.code, stdout: out, stderr: err };
  })();
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    done,
    write: async (text) => await writer!.write(new TextEncoder().encode(text)),
    end: async () => await writer!.close(),
  };
}

/**
 * Live processes (host pids) whose command line contains `marker`. Works for commands inside the sandbox's
 * own PID namespace too, whose `$!` would be a pid of that namespace.
 */
export function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name) || Number(e.name) === Deno.pid) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      if (cmdline.includes(marker) && !processGone(Number(e.name))) pids.push(Number(e.name));
    } catch { /* gone meanwhile */ }
  }
  return pids;
}

/** A `sleep` command line the host can find with `pidsWith(marker)`: `sleep 300.<random digits>`. */
export function markedSleep(): { command: string; marker: string } {
  const marker = `300.${String(Math.floor(Math.random() * 1e6)).padStart(6, "1")}`;
  return { command: `sleep ${marker}`, marker: `sleep ${marker}` };
}

/** Whether process `pid` is gone (or a zombie nobody reaped: it runs no more). */
export function processGone(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}
