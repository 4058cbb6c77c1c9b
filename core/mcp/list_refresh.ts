/**
 * Re-lists after `list_changed` notifications: one refresh at a time, and any notifications that arrive while
 * one runs coalesce into a single further refresh. `settled` lets a caller wait (bounded) for every refresh
 * already triggered, so that a change a server announced before a tool result is in the very next request.
 */
export class ListRefresher {
  #run: () => Promise<void>;
  #running?: Promise<void>;
  #again = false;

  /** `run` fetches the list and applies it; its failures are ignored (the old list stays). */
  constructor(run: () => Promise<void>) {
    this.#run = run;
  }

  /** Whether a refresh is running or queued. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /** A notification arrived: refresh now, or once more after the refresh that is running. */
  trigger(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#loop();
  }

  /** Resolves when no refresh is running or queued, or after `timeoutMs`, whichever is first. */
  async settled(timeoutMs: number): Promise<void> {
    if (!this.#running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#running, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  async #loop(): Promise<void> {
    try {
      do {
        this.#again = false;
        await this.#run().catch(() => {});
      } while (this.#again);
    } finally {
      this.#running = undefined;
    }
  }
}
