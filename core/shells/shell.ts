// One background shell: its process (a detached group), its output into the log, its status.
import { RedactingStream, type Redactor } from "../output/mod.ts";
import type { ShellSpec, ShellStatus } from "../tool/mod.ts";
import type { ShellLog } from "./log.ts";
import type { ProcessId } from "./orphans.ts";
import { procInfo } from "./procs.ts";

/** A running (or ended) background process and its output. */
export class BackgroundShell {
  /** The id within the session. */
  readonly id: string;
  /** The command line as the model wrote it. */
  readonly command: string;
  /** When it started (ms since the epoch). */
  readonly started = Date.now();
  /** Its output on disk. */
  readonly log: ShellLog;
  /** The leader process (its pid is the process group). */
  readonly leader: ProcessId;
  /** Resolves once the leader has exited and its output is drained (the sandbox's check done). */
  readonly ended: Promise<void>;
  #status: ShellStatus = "running";
  #exitCode?: number;
  #killed = false;
  #lastOutput = 0;

  /** Spawn `spec` detached, its stdout and stderr redacted into `log`. Throws when it cannot start. */
  constructor(id: string, spec: ShellSpec, opts: { log: ShellLog; redactor: Redactor }) {
    this.id = id;
    this.command = spec.command;
    const log = this.log = opts.log;
    const [program, ...args] = spec.argv;
    const child = new Deno.Command(program, {
      args,
      cwd: spec.cwd,
      env: spec.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    this.leader = { pid: child.pid, start: procInfo(child.pid)?.start ?? "" };
    const drain = async (stream: ReadableStream<Uint8Array>) => {
      const redacting = new RedactingStream(opts.redactor);
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        this.#lastOutput = Date.now();
        log.append(redacting.push(chunk));
      }
      log.append(redacting.flush());
    };
    this.ended = (async () => {
      const [status] = await Promise.all([child.status, drain(child.stdout), drain(child.stderr)]);
      const note = await spec.done?.().catch((err) =>
        `the sandbox's check failed: ${(err as Error).message}`
      );
      if (note) log.append(`\n[${note}]\n`);
      this.#exitCode = status.code;
      this.#status = this.#killed ? "killed" : "exited";
    })();
  }

  /** running, exited or killed. */
  get status(): ShellStatus {
    return this.#status;
  }

  /** The exit code once it ended. */
  get exitCode(): number | undefined {
    return this.#exitCode;
  }

  /** When output last arrived (ms since the epoch; 0 before any). */
  get lastOutput(): number {
    return this.#lastOutput;
  }

  /** Mark it as stopped by navi (its status reads `killed` once it has ended). */
  markKilled(): void {
    if (this.#status === "running") this.#killed = true;
  }
}
