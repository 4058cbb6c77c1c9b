/** The state of a circuit breaker when a call is refused. */
export interface BreakerOpen {
  /** Failed calls in a row. */
  failures: number;
  /** Milliseconds until a trial call is let through (at least 1 s is shown to the user). */
  waitMs: number;
}

/**
 * A circuit breaker: after `threshold` failed calls in a row calls fail fast for `cooldownMs`; then one
 * trial call decides (success closes the circuit, failure opens it for another cooldown).
 */
export class CircuitBreaker {
  #threshold: number;
  #cooldownMs: number;
  #now: () => number;
  #failures = 0;
  #openedAt = 0;
  #trial = false;

  /** Open after `threshold` failures in a row, for `cooldownMs`; `now` is the clock (default `Date.now`). */
  constructor(opts: { threshold: number; cooldownMs: number; now?: () => number }) {
    this.#threshold = opts.threshold;
    this.#cooldownMs = opts.cooldownMs;
    this.#now = opts.now ?? Date.now;
  }

  /** Failed calls in a row. */
  get failures(): number {
    return this.#failures;
  }

  /** Ask before a call: undefined lets it through (as the trial call when the cooldown is over). */
  admit(): BreakerOpen | undefined {
    if (this.#failures < this.#threshold) return undefined;
    const waitMs = this.#cooldownMs - (this.#now() - this.#openedAt);
    if (waitMs > 0 || this.#trial) return { failures: this.#failures, waitMs };
    this.#trial = true;
    return undefined;
  }

  /** The admitted call reached the server and got an answer. */
  succeeded(): void {
    this.#failures = 0;
    this.#trial = false;
  }

  /** The admitted call failed (transport error, timeout). */
  failed(): void {
    this.#failures++;
    if (this.#failures >= this.#threshold) this.#openedAt = this.#now();
    this.#trial = false;
  }

  /** The admitted call ended without a verdict (the user aborted it). */
  released(): void {
    this.#trial = false;
  }

  /** Forget failures (a fresh connection). */
  reset(): void {
    this.#failures = 0;
    this.#trial = false;
  }
}
