// A fake clock for tests of code that waits (TTLs, token expiry, retry waits, breaker cool-downs, idle workers):
// time stands still until the test calls `advance`, which fires the timers that fall due, in order.
import type { Clock } from "../../core/mod.ts";

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A `Clock` whose time moves only by `advance(ms)`. Its methods are bound (pass `clock.now` around as is).
 * Timers fire in the order they fall due (ties: in the order they were set); a timer that a firing timer sets
 * fires in the same `advance` when it falls due within it.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers = new Map<number, Timer>();

  /** A clock at `start` (ms since the epoch; default 2030-01-01T00:00:00Z). */
  constructor(start = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  /** The fake time, in ms since the epoch. */
  now = (): number => this.#now;

  /** Run `fn` when the clock has been advanced by `ms` (0 or less: at the next `advance`, even `advance(0)`). */
  setTimeout = (fn: () => void, ms: number): number => {
    const id = ++this.#seq;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), seq: id, fn });
    return id;
  };

  /** Cancel a timer (unknown ids are ignored). */
  clearTimeout = (id: number | undefined): void => {
    if (id !== undefined) this.#timers.delete(id);
  };

  /** How many timers are set and have not fired. */
  get pending(): number {
    return this.#timers.size;
  }

  /** When the next timer falls due (ms from now), or undefined without timers. */
  get nextDue(): number | undefined {
    const next = this.#due(Infinity);
    return next && next.at - this.#now;
  }

  /** Move the time `ms` forward, firing every timer due on the way (the clock reads its due time meanwhile). */
  advance(ms: number): void {
    if (ms < 0) throw new Error(`FakeClock.advance: negative ${ms}`);
    const end = this.#now + ms;
    for (let timer = this.#due(end); timer; timer = this.#due(end)) {
      this.#timers.delete(timer.seq);
      this.#now = Math.max(this.#now, timer.at);
      timer.fn();
    }
    this.#now = end;
  }

  #due(end: number): Timer | undefined {
    let first: Timer | undefined;
    for (const t of this.#timers.values()) {
      if (t.at <= end && (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq))) first = t;
    }
    return first;
  }
}
