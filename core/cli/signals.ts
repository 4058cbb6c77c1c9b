/** The signals that end navi and the exit status of each (128 + the signal's number). */
export const EXIT_STATUS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal that ends navi. */
export type ExitSignal = keyof typeof EXIT_STATUS;

/** Options of a SignalTrap. */
export interface TrapOptions {
  /** Called on the first signal (after `signal` aborted): stop what runs, e.g. close the REPL's input. */
  onSignal?(sig: ExitSignal): void;
  /** A second signal while navi winds down: end now with this status (default `Deno.exit`). */
  force?(status: number): void;
}

/**
 * Turns the signals that end navi into an orderly stop. The first one aborts `signal` (the running request
 * and tools stop: bash process groups are killed, the session keeps what arrived, marked interrupted) and
 * calls `onSignal`; the command then returns `status`, and the CLI program closes the app (MCP servers) on
 * its way out. A second signal ends the process at once. Dispose it to restore the default actions.
 */
export class SignalTrap implements Disposable {
  #controller = new AbortController();
  #received?: ExitSignal;
  #listeners: [ExitSignal, () => void][] = [];

  /** Listen for `signals` (SIGINT, SIGTERM, SIGHUP) until disposed. */
  constructor(signals: readonly ExitSignal[], opts: TrapOptions = {}) {
    const force = opts.force ?? ((status: number) => Deno.exit(status));
    for (const sig of signals) {
      const listener = () => {
        if (this.#received) return force(EXIT_STATUS[this.#received]);
        this.#received = sig;
        this.#controller.abort(new DOMException(`navi received ${sig}`, "AbortError"));
        opts.onSignal?.(sig);
      };
      try {
        Deno.addSignalListener(sig, listener);
        this.#listeners.push([sig, listener]);
      } catch { /* a signal this platform does not have (SIGTERM and SIGHUP on Windows) */ }
    }
  }

  /** Aborts at the first signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The first signal received, if any. */
  get received(): ExitSignal | undefined {
    return this.#received;
  }

  /** The exit status for the signal received (130, 143, 129), or undefined when none came. */
  get status(): number | undefined {
    return this.#received && EXIT_STATUS[this.#received];
  }

  /** One line for stderr saying why navi stopped, or "" when no signal came. */
  describe(): string {
    const what = { SIGINT: "interrupted", SIGTERM: "terminated", SIGHUP: "hung up" };
    return this.#received ? `navi: ${what[this.#received]} (${this.#received})` : "";
  }

  /** Stop listening; the signals get their default actions back. */
  [Symbol.dispose](): void {
    for (const [sig, listener] of this.#listeners.splice(0)) Deno.removeSignalListener(sig, listener);
  }
}
