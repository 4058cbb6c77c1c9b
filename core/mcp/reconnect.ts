import { type Clock, systemClock } from "../clock/mod.ts";

/** Timing of reconnects and the circuit breaker (tests shorten them). */
export interface McpTiming {
  /** Delay before the first reconnect attempt; it doubles with every attempt (with jitter). */
  reconnectBaseMs: number;
  /** The longest delay between reconnect attempts. */
  reconnectMaxMs: number;
  /** Reconnect attempts before giving up; a successful connect starts the count again. */
  maxReconnects: number;
  /** Failed calls in a row that open the circuit breaker. */
  breakerThreshold: number;
  /** How long an open circuit fails calls fast before a trial call. */
  breakerCooldownMs: number;
}

/** 1 s doubling to 60 s, 8 attempts; the circuit opens after 3 failures in a row for 60 s. */
export const DEFAULT_TIMING: McpTiming = {
  reconnectBaseMs: 1000,
  reconnectMaxMs: 60_000,
  maxReconnects: 8,
  breakerThreshold: 3,
  breakerCooldownMs: 60_000,
};

/** Delay before reconnect attempt `attempt` (from 0): exponential, capped, with jitter in [50%, 100%]. */
export function backoffDelay(
  attempt: number,
  timing: Pick<McpTiming, "reconnectBaseMs" | "reconnectMaxMs">,
  random: () => number = Math.random,
): number {
  return Math.min(timing.reconnectMaxMs, timing.reconnectBaseMs * 2 ** attempt) * (0.5 + random() / 2);
}

/** Schedules reconnect attempts with backoff, at most one pending, up to `maxReconnects`. */
export class Reconnector {
  #timing: McpTiming;
  #connect: () => void;
  #clock: Clock;
  #attempts = 0;
  #timer?: number;
  #stopped = false;

  /** `connect` is run for each attempt; `timing` sets the delays and the attempt limit, on `clock`. */
  constructor(timing: McpTiming, connect: () => void, clock: Clock = systemClock) {
    this.#timing = timing;
    this.#connect = connect;
    this.#clock = clock;
  }

  /** Try again after the next backoff delay (no-op while one is pending, after stop, or when attempts ran out). */
  schedule(): void {
    if (this.#stopped || this.#timer || this.#attempts >= this.#timing.maxReconnects) return;
    const delay = backoffDelay(this.#attempts, this.#timing);
    this.#attempts++;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#connect();
    }, delay);
  }

  /** A connection succeeded: the next failure starts the schedule from the beginning. */
  reset(): void {
    this.#attempts = 0;
  }

  /** Never try again; cancels a pending attempt. */
  stop(): void {
    this.#stopped = true;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
