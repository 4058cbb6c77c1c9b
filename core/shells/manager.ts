import { join } from "node:path";
import type { Redactor } from "../output/mod.ts";
import type { BackgroundShells, ShellReport, ShellSpec, ShellSummary } from "../tool/mod.ts";
import { ShellLog } from "./log.ts";
import { killNow, type ProcessId, removeRecord, selfId, writeRecord } from "./orphans.ts";
import { groupMembers, type ProcInfo, sameProcess, signalTree } from "./procs.ts";
import { BackgroundShell } from "./shell.ts";

/** How much new output one read returns at most (the newest part; the log keeps all of it). */
export const MAX_READ_CHARS = 16_000;
/** How long `start` waits for first output at most. */
const FIRST_OUTPUT_MS = 1000;
/** `start` returns this long after the last output arrived, when some did. */
const QUIET_MS = 200;

/** What a ShellManager works with. */
export interface ShellManagerOptions {
  /** navi's home: the records that let the next start clean up after a crash go to `<home>/shells/`. */
  home: string;
  /** The session's id (in the records). */
  session: string;
  /** The session's shell folder: each shell's log is `<dir>/<id>.log`. */
  dir: string;
  /** Redacts the output before it is written. */
  redactor: Redactor;
  /** How long a stopped shell has between SIGTERM and SIGKILL (default 2000 ms). */
  graceMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The background shells of one session: it starts them, keeps their output (redacted, in the session's folder),
 * reads what is new, stops them (SIGTERM to every process, SIGKILL after a grace period) and stops them all at
 * `close`. A record of each under `$NAVI_HOME/shells/` lets the next navi stop what a crash left behind.
 */
export class ShellManager implements BackgroundShells {
  #opts: ShellManagerOptions;
  #shells = new Map<string, BackgroundShell>();
  #records = new Map<string, string | undefined>();
  #signalled = new Map<string, ProcInfo[]>();
  #next?: number;
  #owner?: ProcessId;
  #closing?: Promise<void>;
  #listeners = new Set<() => void>();
  #unload = () => this.#killAllNow();

  /** Nothing starts until the first `start`. */
  constructor(opts: ShellManagerOptions) {
    this.#opts = opts;
  }

  /** Start a command in the background; resolves with its id and its first output. */
  async start(spec: ShellSpec): Promise<ShellReport> {
    if (this.#closing) throw new Error("the session is closing; no new background shells");
    const id = this.#newId();
    const log = new ShellLog(join(this.#opts.dir, `${id}.log`));
    let shell: BackgroundShell;
    try {
      shell = new BackgroundShell(id, spec, { log, redactor: this.#opts.redactor });
    } catch (err) {
      log.close();
      throw err;
    }
    if (!this.#shells.size) globalThis.addEventListener("unload", this.#unload);
    this.#shells.set(id, shell);
    this.#owner ??= selfId();
    this.#records.set(
      id,
      writeRecord(this.#opts.home, {
        owner: this.#owner,
        leader: shell.leader,
        session: this.#opts.session,
        id,
        command: this.#opts.redactor.redact(spec.command),
      }),
    );
    shell.ended.then(() => this.#afterExit(shell), () => this.#afterExit(shell));
    this.#changed();
    await this.#firstOutput(shell);
    return this.#report(shell);
  }

  async #firstOutput(shell: BackgroundShell): Promise<void> {
    const until = Date.now() + FIRST_OUTPUT_MS;
    let ended = false;
    shell.ended.then(() => (ended = true), () => (ended = true));
    while (!ended && Date.now() < until) {
      if (shell.lastOutput && Date.now() - shell.lastOutput >= QUIET_MS) break;
      await sleep(25);
    }
  }

  /** The output since the last read (with `keep`: only the lines it accepts). */
  read(id: string, opts: { keep?: (line: string) => boolean } = {}): Promise<ShellReport | undefined> {
    const shell = this.#shells.get(id);
    return Promise.resolve(shell && this.#report(shell, opts.keep));
  }

  /** Stop a shell and what it started; resolves once they are gone, with the output they left. */
  async kill(id: string): Promise<ShellReport | undefined> {
    const shell = this.#shells.get(id);
    if (!shell) return undefined;
    await this.#stop(shell);
    return this.#report(shell);
  }

  /** For an id this run does not know: the log an earlier run of the session left under that id, if any. */
  earlier(id: string): string | undefined {
    if (this.#shells.has(id) || !/^shell_\d+$/.test(id)) return undefined;
    const path = join(this.#opts.dir, `${id}.log`);
    try {
      return Deno.statSync(path).isFile ? path : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every shell of the session, oldest first. */
  list(): ShellSummary[] {
    return [...this.#shells.values()].map((s) => ({
      id: s.id,
      command: s.command,
      status: s.status,
      ...(s.exitCode === undefined ? {} : { exit_code: s.exitCode }),
      started: s.started,
      bytes: s.log.bytes,
    }));
  }

  /** How many shells run now. */
  running(): number {
    return [...this.#shells.values()].filter((s) => s.status === "running").length;
  }

  /** Call `fn` when a shell starts or ends; returns a function that stops the calls. */
  subscribe(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Stop every shell (and what it left running); no shell starts afterwards. Safe to call twice. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#shells.values()].map((s) => this.#stop(s)));
      globalThis.removeEventListener("unload", this.#unload);
      this.#listeners.clear();
    })();
    return this.#closing;
  }

  async #stop(shell: BackgroundShell): Promise<void> {
    shell.markKilled();
    const signalled = signalTree(shell.leader, "SIGTERM", this.#signalled.get(shell.id));
    this.#signalled.set(shell.id, signalled);
    const deadline = Date.now() + (this.#opts.graceMs ?? 2000);
    let ended = false;
    shell.ended.then(() => (ended = true), () => (ended = true));
    while (Date.now() < deadline && (!ended || this.#leftOver(shell, signalled))) await sleep(25);
    if (!ended || this.#leftOver(shell, signalled)) signalTree(shell.leader, "SIGKILL", signalled);
    await shell.ended.catch(() => {});
    this.#forget(shell);
  }

  #leftOver(shell: BackgroundShell, signalled: ProcInfo[]): boolean {
    return groupMembers(shell.leader.pid, shell.leader.start).length > 0 ||
      signalled.some((p) => sameProcess(p.pid, p.start));
  }

  #afterExit(shell: BackgroundShell): void {
    if (!groupMembers(shell.leader.pid, shell.leader.start).length) this.#forget(shell);
    this.#changed();
  }

  #forget(shell: BackgroundShell): void {
    shell.log.close();
    removeRecord(this.#records.get(shell.id));
    this.#records.set(shell.id, undefined);
  }

  #killAllNow(): void {
    for (const shell of this.#shells.values()) {
      const record = this.#records.get(shell.id);
      if (!record) continue;
      killNow(shell.leader, this.#signalled.get(shell.id));
      removeRecord(record);
    }
  }

  #changed(): void {
    for (const fn of this.#listeners) fn();
  }

  #report(shell: BackgroundShell, keep?: (line: string) => boolean): ShellReport {
    const status = shell.status;
    const read = shell.log.readNew({ maxChars: MAX_READ_CHARS, keep, final: status !== "running" });
    return {
      id: shell.id,
      command: shell.command,
      status,
      ...(shell.exitCode === undefined ? {} : { exit_code: shell.exitCode }),
      output: read.output,
      ...(read.note ? { note: read.note } : {}),
      log: shell.log.path,
    };
  }

  #newId(): string {
    if (this.#next === undefined) {
      this.#next = 1;
      try {
        for (const e of Deno.readDirSync(this.#opts.dir)) {
          const n = /^shell_(\d+)\.log$/.exec(e.name);
          if (n) this.#next = Math.max(this.#next, Number(n[1]) + 1);
        }
      } catch { /* no shells in this session yet */ }
    }
    return `shell_${this.#next++}`;
  }
}
