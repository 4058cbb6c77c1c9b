import { join } from "node:path";
import type { McpServerConfig } from "../config/mod.ts";
import { RedactingStream, type Redactor } from "../output/mod.ts";
import { stdioEnvironment } from "./stdio_env.ts";

/** Where a stdio server's stderr goes: `$NAVI_HOME/logs/mcp-<name>.log`. */
export function serverLogPath(home: string, name: string): string {
  return join(home, "logs", `mcp-${name}.log`);
}

/** What spawning a stdio server needs. */
export interface SpawnOptions {
  /** navi's home directory (for the log file). */
  home: string;
  /** The default working directory. */
  workspace: string;
  /** The process environment (see `stdioEnvironment`). */
  env: { get(key: string): string | undefined; toObject(): Record<string, string> };
  /** Redacts secrets from what the server writes to stderr before it is logged or shown. */
  secrets?: Redactor;
}

const TAIL_CHARS = 2000;
const KILL_AFTER_MS = 1000;

/**
 * A running stdio server process: stdin and stdout for the transport, stderr appended to the server's log
 * (and its tail kept for error messages). Deliberately free of library imports so that it can be started
 * before anything else loads.
 */
export class StdioProcess {
  /** The child process; its stdout carries the server's messages. */
  readonly child: Deno.ChildProcess;
  /** The server's log file. */
  readonly log: string;
  /** Settles when the process has exited. */
  readonly exited: Promise<Deno.CommandStatus>;
  #spec: string;
  #tail = "";
  #pump: Promise<void>;
  #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #ended = false;

  private constructor(child: Deno.ChildProcess, opts: { log: string; spec: string; secrets?: Redactor }) {
    this.child = child;
    this.log = opts.log;
    this.#spec = opts.spec;
    this.exited = child.status;
    this.exited.then(() => (this.#ended = true), () => (this.#ended = true));
    this.#stdin = child.stdin.getWriter();
    this.#pump = this.#pumpStderr(opts.secrets);
  }

  /** Start server `name` as `config` says; throws an Error naming the command when it cannot be started. */
  static spawn(name: string, config: McpServerConfig, opts: SpawnOptions): StdioProcess {
    const log = serverLogPath(opts.home, name);
    const env = stdioEnvironment(config, opts.env);
    const cwd = config.cwd ?? opts.workspace;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(config.command!, {
        args: config.args ?? [],
        env,
        clearEnv: true,
        cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (err) {
      const why = err instanceof Deno.errors.NotFound ? "not found (is it on PATH?)" : (err as Error).message;
      throw new Error(`cannot start ${config.command}: ${why}`);
    }
    try {
      Deno.mkdirSync(join(opts.home, "logs"), { recursive: true });
      Deno.writeTextFileSync(log, `--- ${new Date().toISOString()} started by navi (pid ${child.pid})\n`, {
        append: true,
      });
    } catch { /* logging must never take a server down */ }
    return new StdioProcess(child, { log, spec: specOf(config, { env, cwd }), secrets: opts.secrets });
  }

  /** The process id. */
  get pid(): number {
    return this.child.pid;
  }

  /** Whether this process was started for exactly `config` (command, arguments, environment, directory). */
  matches(config: McpServerConfig, opts: SpawnOptions): boolean {
    return this.#spec ===
      specOf(config, { env: stdioEnvironment(config, opts.env), cwd: config.cwd ?? opts.workspace });
  }

  /** The last line the server wrote to stderr, if any (secrets are the caller's to redact). */
  lastLine(): string | undefined {
    return this.#tail.split("\n").map((l) => l.trim()).filter(Boolean).at(-1);
  }

  /** Write to the server's stdin (rejects once the process is gone). */
  write(bytes: Uint8Array): Promise<void> {
    return this.#stdin.write(bytes);
  }

  /**
   * End the server: stdin closed and SIGTERM together (both ask it to end; waiting for a server to notice the
   * end of its input cost every run 50 ms and many never do), SIGKILL after a second. Never throws.
   */
  async stop(): Promise<void> {
    await this.#stdin.close().catch(() => {});
    const signal = (sig: Deno.Signal) => {
      if (this.#ended) return;
      try {
        this.child.kill(sig);
      } catch { /* already gone */ }
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gone = await Promise.race([
      this.exited.then(() => true, () => true),
      new Promise<boolean>((r) => {
        signal("SIGTERM");
        timer = setTimeout(() => r(false), KILL_AFTER_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!gone) signal("SIGKILL");
    await this.exited.catch(() => {});
    await this.#pump;
  }

  async #pumpStderr(secrets: Redactor | undefined): Promise<void> {
    const decoder = new TextDecoder();
    const redacting = secrets ? new RedactingStream(secrets) : undefined;
    const append = (text: string) => {
      if (!text) return;
      this.#tail = (this.#tail + text).slice(-TAIL_CHARS);
      try {
        Deno.writeTextFileSync(this.log, text, { append: true });
      } catch { /* logging must never take a server down */ }
    };
    try {
      for await (const chunk of this.child.stderr) {
        const text = decoder.decode(chunk, { stream: true });
        append(redacting ? redacting.push(text) : text);
      }
    } catch { /* the stream ends with the process */ }
    append(redacting?.flush() ?? "");
  }
}

function specOf(config: McpServerConfig, extra: { env: Record<string, string>; cwd: string }): string {
  const env = Object.entries(extra.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([config.command, config.args ?? [], env, extra.cwd]);
}
