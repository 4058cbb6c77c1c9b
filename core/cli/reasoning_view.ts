import { escapeControls } from "../output/mod.ts";
import type { Style } from "./style.ts";

/** How the REPL shows a model's reasoning; `/reasoning on|off` switches it. */
export interface ReasoningDisplay {
  /** true: the reasoning streams in dimmed; false: one summary line per response. */
  shown: boolean;
}

/**
 * The reasoning of one response at a time, for the terminal: dimmed text as it streams (shown), or nothing
 * until it ends and then one summary line (collapsed). The printer writes what `piece` and `end` return.
 */
export class ReasoningView {
  /** The display setting (shared with `/reasoning`). */
  readonly display: ReasoningDisplay = { shown: true };
  #style: Style;
  #chars = 0;
  #since: number | undefined;
  #now: () => number;

  /** `now` is the clock the summary's duration is measured with. */
  constructor(style: Style, now: () => number = Date.now) {
    this.#style = style;
    this.#now = now;
  }

  /** Whether reasoning of the current response has arrived and not ended yet. */
  get open(): boolean {
    return this.#since !== undefined;
  }

  /** Take one piece; returns the text to write now (dimmed, controls neutralised) or "". */
  piece(delta: string): string {
    this.#since ??= this.#now();
    this.#chars += delta.length;
    return this.display.shown ? this.#style.dim(escapeControls(delta)) : "";
  }

  /**
   * The reasoning ended (the answer, a tool call or the end of the response came): "" when none was open;
   * shown: a line break after it; collapsed: the summary line.
   */
  end(): string {
    if (this.#since === undefined) return "";
    const seconds = ((this.#now() - this.#since) / 1000).toFixed(1);
    const chars = this.#chars;
    this.#since = undefined;
    this.#chars = 0;
    if (this.display.shown) return "\n";
    return this.#style.dim(`✻ reasoned ${seconds} s (${chars} chars; /reasoning show prints it)`) + "\n";
  }
}
