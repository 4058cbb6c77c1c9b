import type { Sink } from "../output/mod.ts";

/** The phases of a run, in the order they begin (`first prompt`: the REPL's, absent from `-p`). */
export const STARTUP_PHASES = [
  "config read",
  "servers spawned",
  "modules loaded",
  "tools ready",
  "first prompt",
  "first request sent",
  "first byte",
  "exit",
] as const;

/** One phase of a run. */
export type StartupPhase = typeof STARTUP_PHASES[number];

/** How a trace is made. */
export interface StartupTraceOptions {
  /** Record and print (`NAVI_TRACE` names `startup`); a disabled trace records nothing. */
  enabled: boolean;
  /** Milliseconds since the process started (default `performance.now`, whose origin is the process start). */
  now?: () => number;
}

/** The moments the phases of one run began; each phase is recorded once, at its first mark. */
export class StartupTrace {
  /** Whether it records. */
  readonly enabled: boolean;
  #now: () => number;
  #marks = new Map<StartupPhase, number>();

  /** A trace that records when `opts.enabled`. */
  constructor(opts: StartupTraceOptions) {
    this.enabled = opts.enabled;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** The trace `NAVI_TRACE` asks for: a comma-separated list of names, `startup` among them. */
  static fromEnv(env: { get(name: string): string | undefined }): StartupTrace {
    const names = (env.get("NAVI_TRACE") ?? "").split(",").map((s) => s.trim());
    return new StartupTrace({ enabled: names.includes("startup") || names.includes("all") });
  }

  /** `phase` begins now (ignored when it was already marked or the trace is disabled). */
  mark(phase: StartupPhase): void {
    if (this.enabled && !this.#marks.has(phase)) this.#marks.set(phase, this.#now());
  }

  /** The recorded phases in the order they began, with their milliseconds. */
  entries(): { phase: StartupPhase; ms: number }[] {
    return [...this.#marks].map(([phase, ms]) => ({ phase, ms })).sort((a, b) => a.ms - b.ms);
  }

  /** One line per recorded phase (`navi: trace startup 41 ms config read`), written to `sink`. */
  print(sink: Sink): void {
    for (const { phase, ms } of this.entries()) {
      sink.write(`navi: trace startup ${ms.toFixed(0).padStart(5)} ms ${phase}\n`);
    }
  }
}
