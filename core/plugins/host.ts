import { type Clock, systemClock } from "../clock/mod.ts";
import type { WorkerPermissions } from "./permissions.ts";
import type {
  FromWorker,
  HookDefinitionData,
  InitMessage,
  ToolDefinitionData,
  ToWorker,
} from "./protocol.ts";
import type { ToolResult } from "../tool/mod.ts";

/** How long a cancelled (timed-out or aborted) handler may take to stop before its worker is ended. */
export const STOP_GRACE_MS = 500;
const BOOT_TIMEOUT_MS = 30_000;
const FLUSH_MS = 500;

/** What a worker said when `register` finished. */
export interface Registration {
  tools: ToolDefinitionData[];
  /** The `permissions` export as the module evaluated it. */
  permissions: unknown;
  /** The hooks it registered with `navi.on`. */
  hooks?: HookDefinitionData[];
}

/** What one plugin's worker host needs. */
export interface PluginWorkerOptions {
  /** The plugin's name in messages (`x.ts`, `multi/mod.ts`). */
  name: string;
  permissions: WorkerPermissions;
  /** The URL of the worker bootstrap (created once per process). */
  bootUrl(): Promise<string>;
  /** Read and compile the plugin: what the worker evaluates. Called at every start. */
  prepare(): Promise<Omit<InitMessage, "type" | "name">>;
  /** How long module evaluation plus `register()` may take. */
  loadTimeoutMs: number;
  /** An idle worker (no call for this long) is ended. */
  idleMs: number;
  /** A line for plugins.log. */
  log(line: string): void;
  /** A worker ended on its own (exit, uncaught error, unhandled rejection): one line naming the plugin. */
  fault(message: string): void;
  /** Something the user should hear of once (the plugin wrote to stdout or stderr): one line. */
  notice?(message: string): void;
  /** A worker was started (`why`: registration or call). */
  started(why: string): void;
  /** The clock of the time limits, the stop grace and the idle timeout (default the system clock). */
  clock?: Clock;
}

type Pending = (result: ToolResult) => void;

/** One plugin's worker: started on demand, ended when idle, on a fault or when a call will not stop. */
export class PluginWorker {
  #opts: PluginWorkerOptions;
  #worker?: Worker;
  #ready?: Promise<Registration>;
  #fail?: (err: Error) => void;
  #pending = new Map<number, Pending>();
  #next = 0;
  #idle?: number;
  #flushed?: () => void;
  #toldOutput = false;
  #clock: Clock;

  /** A host for the plugin `opts.name`; nothing starts until `start` or `call`. */
  constructor(opts: PluginWorkerOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
  }

  /** Whether a worker is running (or starting). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Start the worker (if not running) and wait until `register` finished; rejects with a one-line reason. */
  start(why = "call"): Promise<Registration> {
    this.#ready ??= this.#boot(why).catch((err) => {
      this.stop();
      throw err;
    });
    return this.#ready;
  }

  async #boot(why: string): Promise<Registration> {
    const { name, loadTimeoutMs } = this.#opts;
    const clock = this.#clock;
    const init = await this.#opts.prepare();
    const worker = new Worker(await this.#opts.bootUrl(), {
      type: "module",
      name: `navi plugin ${name}`,
      deno: { permissions: this.#opts.permissions },
    } as WorkerOptions);
    this.#worker = worker;
    this.#opts.started(why);
    let timer: number | undefined;
    const ready = new Promise<Registration>((resolve, reject) => {
      this.#fail = reject;
      timer = clock.setTimeout(() => reject(new Error("the plugin worker did not start")), BOOT_TIMEOUT_MS);
      worker.onerror = (e) => {
        e.preventDefault();
        this.#fault("error", e.message);
      };
      worker.onmessage = (e: MessageEvent<FromWorker>) => {
        const msg = e.data;
        if (!msg || typeof msg !== "object") return;
        if (msg.type === "booted" && timer !== undefined) {
          clock.clearTimeout(timer);
          timer = clock.setTimeout(
            () =>
              reject(
                new Error(
                  `did not finish loading within ${loadTimeoutMs} ms (module evaluation and register())`,
                ),
              ),
            loadTimeoutMs,
          );
          this.#post({ type: "init", name, ...init });
        } else if (msg.type === "ready" && this.#fail) {
          this.#fail = undefined;
          const hooks = Array.isArray(msg.hooks) ? msg.hooks : [];
          resolve({ tools: Array.isArray(msg.tools) ? msg.tools : [], permissions: msg.permissions, hooks });
        } else if (msg.type === "failed") reject(new Error(String(msg.error)));
        else this.#message(msg);
      };
    });
    try {
      return await ready;
    } finally {
      clock.clearTimeout(timer);
      this.#fail = undefined;
      this.#touch();
    }
  }

  #message(msg: FromWorker): void {
    if (msg.type === "log") this.#opts.log(`[plugin ${this.#opts.name}] ${String(msg.line)}`);
    else if (msg.type === "output") this.#output(msg.stream, String(msg.text));
    else if (msg.type === "flushed") this.#flushed?.();
    else if (msg.type === "fault") {
      if (msg.stack) this.#opts.log(`[plugin ${this.#opts.name}] ${msg.stack}`);
      this.#fault(msg.kind, String(msg.message));
    } else if (msg.type === "result") {
      const done = this.#pending.get(msg.id);
      if (!done) return;
      if (msg.stack) this.#opts.log(`[plugin ${this.#opts.name}] handler error: ${msg.stack}`);
      done(msg.result as ToolResult);
    }
  }

  /** A plugin's write to stdout or stderr: into plugins.log line by line, and the user told once. */
  #output(stream: "stdout" | "stderr", text: string): void {
    for (const line of text.replace(/\n$/, "").split("\n")) {
      this.#opts.log(`[plugin ${this.#opts.name}] ${stream}: ${line}`);
    }
    if (this.#toldOutput) return;
    this.#toldOutput = true;
    this.#opts.notice?.(
      `plugin ${this.#opts.name} wrote to ${stream}; its output goes to logs/plugins.log, not the terminal`,
    );
  }

  #fault(kind: string, message: string): void {
    if (!this.#worker) return;
    const what = kind === "rejection"
      ? `unhandled rejection: ${message}`
      : kind === "exit"
      ? message
      : `uncaught error: ${message}`;
    const line = `plugin ${this.#opts.name} stopped (${what}); its next call starts it again`;
    this.#opts.log(line);
    const loading = this.#fail;
    if (!loading) this.#opts.fault(line);
    loading?.(new Error(kind === "exit" ? `${message} while loading` : what));
    this.stop(line);
  }

  #post(msg: ToWorker): void {
    this.#worker?.postMessage(msg);
  }

  /**
   * Run one tool call in the worker. At `timeoutMs` (or when `signal` aborts) the handler's signal is aborted;
   * a handler that has not stopped `STOP_GRACE_MS` later is stopped by ending its worker.
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolResult> {
    await this.start();
    if (opts.signal.aborted) return { ok: false, error: "Aborted by the user" };
    const id = ++this.#next;
    const clock = this.#clock;
    clock.clearTimeout(this.#idle);
    let timer: number | undefined;
    let onAbort: (() => void) | undefined;
    let cancelled = false;
    try {
      return await new Promise<ToolResult>((resolve) => {
        this.#pending.set(id, resolve);
        const cancel = (reason: string) => {
          if (cancelled) return;
          cancelled = true;
          clock.clearTimeout(timer);
          this.#pending.set(id, () => resolve({ ok: false, error: reason }));
          this.#post({ type: "abort", id, reason });
          timer = clock.setTimeout(() => {
            if (!this.#pending.has(id)) return;
            this.#opts.log(`[plugin ${this.#opts.name}] ${tool} did not stop; its worker was ended`);
            this.stop(`the plugin's worker was ended: ${tool} did not stop when it was cancelled`);
          }, STOP_GRACE_MS);
        };
        onAbort = () => cancel("Aborted by the user");
        opts.signal.addEventListener("abort", onAbort, { once: true });
        timer = clock.setTimeout(
          () => cancel(`${tool} timed out after ${opts.timeoutMs} ms`),
          opts.timeoutMs,
        );
        this.#post({ type: "call", id, tool, args });
      });
    } finally {
      clock.clearTimeout(timer);
      opts.signal.removeEventListener("abort", onAbort!);
      this.#pending.delete(id);
      this.#touch();
    }
  }

  /**
   * Wait (at most `ms`) until the worker has sent every report it has queued: a stray rejection of a call that
   * just ended is reported in the task after it, which a flush round trip waits for. Skipped while calls run.
   */
  async flush(ms = FLUSH_MS): Promise<void> {
    if (!this.#worker || this.#pending.size) return;
    const clock = this.#clock;
    let timer: number | undefined;
    await new Promise<void>((resolve) => {
      this.#flushed = resolve;
      timer = clock.setTimeout(resolve, ms);
      this.#post({ type: "flush" });
    });
    clock.clearTimeout(timer);
    this.#flushed = undefined;
  }

  #touch(): void {
    this.#clock.clearTimeout(this.#idle);
    if (!this.#worker || this.#pending.size) return;
    this.#idle = this.#clock.setTimeout(() => this.stop(), this.#opts.idleMs);
    this.#clock.unref?.(this.#idle);
  }

  /** End the worker now; calls still running get `reason` as their error. */
  stop(reason = "the plugin worker was stopped"): void {
    this.#clock.clearTimeout(this.#idle);
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#ready = undefined;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const done of pending) done({ ok: false, error: reason });
  }
}
