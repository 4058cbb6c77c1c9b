import { type Key, KeyDecoder } from "./keys.ts";
import { streamSink } from "../output/mod.ts";

/** Receives the keys of one read. */
export type KeyHandler = (keys: Key[]) => void;

/** Where keys come from: the newest pushed handler gets them. */
export interface KeySource {
  /** Make `handler` receive keys until the returned function is called. */
  push(handler: KeyHandler): () => void;
}

/** The terminal as the editor draws on it. */
export interface TermOut {
  write(text: string): void;
  columns(): number;
  rows(): number;
}

/**
 * A TermOut over a Deno stream for navi's own drawing (the line editor, the approval box): it passes the
 * output sink, which lets navi's cursor moves and colours through and shows any other control sequence
 * escaped; text from outside navi must still be escaped where it enters (`escapeControls`).
 */
export function terminalOut(stream: { writeSync(p: Uint8Array): number } = Deno.stdout): TermOut {
  const sink = streamSink(stream, undefined, { drawing: true });
  const size = () => {
    try {
      return Deno.consoleSize();
    } catch {
      return { columns: 80, rows: 24 };
    }
  };
  return {
    write: (text) => sink.write(text),
    columns: () => size().columns || 80,
    rows: () => size().rows || 24,
  };
}

/** What TerminalInput reads from: Deno.stdin on a terminal. */
export interface RawStdin {
  read(p: Uint8Array): Promise<number | null>;
  setRaw(mode: boolean): void;
}

/**
 * Owns a terminal's input: raw mode and bracketed paste on while it runs, one read loop, keys to the newest
 * handler. Keys that arrive while nobody listens wait for the next handler (type-ahead is not lost).
 */
export class TerminalInput implements KeySource {
  #stdin: RawStdin;
  #out: Pick<TermOut, "write">;
  #decoder = new KeyDecoder();
  #handlers: KeyHandler[] = [];
  #queued: Key[] = [];
  #closed = true;
  #escTimer?: ReturnType<typeof setTimeout>;
  #restore = () => this.close();

  /** Read from `stdin`; `out` receives the mode switches (bracketed paste on and off). */
  constructor(stdin: RawStdin, out: Pick<TermOut, "write">) {
    this.#stdin = stdin;
    this.#out = out;
  }

  /** Raw mode on, bracketed paste on, start reading. */
  start(): void {
    if (!this.#closed) return;
    this.#closed = false;
    this.#stdin.setRaw(true);
    this.#out.write("\x1b[?2004h");
    globalThis.addEventListener("unload", this.#restore);
    this.#loop();
  }

  /** Give the terminal back: bracketed paste off, raw mode off. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#deliver([{ kind: "key", name: "closed" }]);
    this.#closed = true;
    clearTimeout(this.#escTimer);
    globalThis.removeEventListener("unload", this.#restore);
    this.#out.write("\x1b[?2004l");
    try {
      this.#stdin.setRaw(false);
    } catch { /* the terminal is gone */ }
  }

  push(handler: KeyHandler): () => void {
    this.#handlers.push(handler);
    if (this.#queued.length) {
      const keys = this.#queued.splice(0);
      queueMicrotask(() => this.#deliver(keys));
    }
    return () => {
      const i = this.#handlers.lastIndexOf(handler);
      if (i >= 0) this.#handlers.splice(i, 1);
    };
  }

  #deliver(keys: Key[]): void {
    if (!keys.length) return;
    const handler = this.#handlers.at(-1);
    if (handler) handler(keys);
    else this.#queued.push(...keys);
  }

  async #loop(): Promise<void> {
    const buf = new Uint8Array(64 * 1024);
    while (!this.#closed) {
      let n: number | null;
      try {
        n = await this.#stdin.read(buf);
      } catch {
        n = null;
      }
      if (this.#closed) return;
      if (n === null) {
        this.#deliver([{ kind: "key", name: "d", ctrl: true }]);
        return;
      }
      clearTimeout(this.#escTimer);
      this.#deliver(this.#decoder.feed(buf.subarray(0, n)));
      if (this.#decoder.pending) {
        this.#escTimer = setTimeout(() => this.#deliver(this.#decoder.flush()), 40);
      }
    }
  }
}
