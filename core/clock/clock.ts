/**
 * The time and the timers that code which waits keeps them with (TTLs, token expiry, retry waits, backoff,
 * breaker cool-downs, idle workers). Production uses `systemClock`; tests hand in a fake one and advance it.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Run `fn` once, `ms` milliseconds from now; returns an id for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): number;
  /** Cancel a timer; an id that already fired, was cancelled or is undefined is ignored. */
  clearTimeout(id: number | undefined): void;
  /** Let the process exit while this timer is pending (a clock without real timers leaves it out). */
  unref?(id: number): void;
}

/** The real clock: `Date.now` and the global timers. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => Number(setTimeout(fn, ms)),
  clearTimeout: (id: number | undefined) => clearTimeout(id),
  unref: (id: number) => Deno.unrefTimer(id),
});
