// Word-aware wrapping of terminal text (colour codes kept), with hanging indents; built on wrap-ansi.
import wrapAnsi from "wrap-ansi";
import { textWidth } from "./text_width.ts";

/** How one logical line is wrapped. */
export interface WrapOptions {
  /** The terminal width. */
  columns: number;
  /** Put before the first row (a bullet, a gutter); default none. */
  first?: string;
  /** Put before every further row (the hanging indent, a gutter); default as wide as `first`, blank. */
  rest?: string;
  /** Keep spaces at row starts and ends (code); default false (prose). */
  keepSpaces?: boolean;
}

/**
 * Wrap `text` at word boundaries into rows of at most `columns` (words longer than a row are cut): the first
 * row starts with `first`, the others with `rest`. Newlines in `text` start new rows with `rest`.
 */
export function wrapRows(text: string, opts: WrapOptions): string[] {
  const first = opts.first ?? "";
  const rest = opts.rest ?? " ".repeat(textWidth(first));
  const width = Math.max(1, opts.columns - Math.max(textWidth(first), textWidth(rest)));
  const wrapped = wrapAnsi(text, width, { hard: true, trim: !opts.keepSpaces, wordWrap: true });
  return wrapped.split("\n").map((row, i) => (i === 0 ? first : rest) + row);
}

/** `wrapRows` joined with newlines. */
export function wrapLine(text: string, opts: WrapOptions): string {
  return wrapRows(text, opts).join("\n");
}
