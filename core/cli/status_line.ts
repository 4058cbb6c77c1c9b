// The live status line under the conversation: a spinner and what navi is doing, redrawn in place.
import type { Sink } from "../output/mod.ts";
import type { Style } from "./style.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The status line of a terminal printer: a spinner with what is going on, redrawn every 100 ms. */
export class StatusLine {
  #ticker: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  /** Whether the line is on screen now. */
  shown = false;
  /** How many rows it takes on screen (more than one while subagents run: one line each). */
  #rows = 1;
  /** While true (a question is on screen) the line is not drawn. */
  held = false;
  #opts: {
    out: Sink;
    style: Style;
    enabled: boolean;
    text(): string | undefined;
    atLineStart(): boolean;
    /** Said after the text (how to stop what runs). */
    hint?: string;
  };

  constructor(
    opts: {
      out: Sink;
      style: Style;
      enabled: boolean;
      text(): string | undefined;
      atLineStart(): boolean;
      /** Said after the text (how to stop what runs). */
      hint?: string;
    },
  ) {
    this.#opts = opts;
  }

  /** Take the line off the screen. */
  clear(): void {
    if (!this.shown) return;
    this.shown = false;
    this.#opts.out.write(this.#erase());
  }

  /** Redraw every 100 ms from now (when enabled: only on a terminal). */
  start(): void {
    if (this.#opts.enabled && this.#ticker === undefined) this.#ticker = setInterval(() => this.#tick(), 100);
  }

  /** Stop redrawing and clear the line. */
  stop(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.clear();
  }

  #tick(): void {
    if (this.held) return;
    const text = this.#opts.text();
    if (!text) return this.clear();
    if (!this.#opts.atLineStart()) return;
    const { out, style } = this.#opts;
    const hint = this.#opts.hint ? ` · ${this.#opts.hint}` : "";
    const [first, ...more] = text.split("\n");
    const lines = [`${FRAMES[this.#frame++ % FRAMES.length]} ${first}${hint}`, ...more];
    const erase = this.shown ? this.#erase() : "\r\x1b[K";
    out.write(`${erase}${lines.map((l) => style.dim(l)).join("\n")}`);
    this.#rows = lines.length;
    this.shown = true;
  }

  /** Takes the line (all its rows) off the screen, the cursor back at the start of its first row. */
  #erase(): string {
    return this.#rows > 1 ? `\r\x1b[${this.#rows - 1}A\x1b[J` : "\r\x1b[K";
  }
}
