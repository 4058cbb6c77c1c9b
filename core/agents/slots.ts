// At most so many subagents at once: a counting semaphore whose waits end when the caller's signal aborts.

/** Hands out at most `size` slots; the others wait in order. */
export class Slots {
  #free: number;
  #waiting: (() => void)[] = [];

  /** `size` slots (at least one). */
  constructor(size: number) {
    this.#free = Math.max(1, size);
  }

  /** Take a slot (waiting for one); resolves with its release. Rejects when `signal` aborts first. */
  take(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(new Error("aborted"));
    const release = once(() => {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    });
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener("abort", onAbort);
        resolve(release);
      };
      const onAbort = () => {
        this.#waiting = this.#waiting.filter((w) => w !== grant);
        reject(new Error("aborted"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/** Runs tasks one at a time, in call order (approval questions of parallel subagents: one on screen at once). */
export class OneAtATime {
  #tail: Promise<unknown> = Promise.resolve();

  /** Run `fn` after the tasks before it; when `signal` aborted meanwhile, resolve with `fallback` instead. */
  run<T>(fn: () => Promise<T>, opts: { signal: AbortSignal; fallback: T }): Promise<T> {
    const next = this.#tail.then(() => (opts.signal.aborted ? opts.fallback : fn()));
    this.#tail = next.catch(() => {});
    return next;
  }
}
