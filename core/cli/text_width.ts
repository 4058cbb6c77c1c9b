import { eastAsianWidth } from "get-east-asian-width";
import { escapeControls } from "../output/mod.ts";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/** Columns one code point takes on a terminal: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (ZERO_WIDTH.test(ch)) return 0;
  return eastAsianWidth(cp, { ambiguousAsWide: false });
}

/** Columns a string takes (SGR colour codes take none). */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text.replace(SGR, "")) w += charWidth(ch);
  return w;
}

/** Cut text (with SGR codes) into rows of at most `columns` visible columns. */
export function wrapText(text: string, columns: number): string[] {
  const rows: string[] = [];
  for (const line of text.split("\n")) {
    let row = "";
    let col = 0;
    // deno-lint-ignore no-control-regex
    for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
      if (part.startsWith("\x1b[")) {
        row += part;
        continue;
      }
      for (const ch of part) {
        const w = charWidth(ch);
        if (col + w > columns && col > 0) {
          rows.push(row);
          row = "";
          col = 0;
        }
        row += ch;
        col += w;
      }
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Replace control characters (escape sequences from pasted or model text) by a visible stand-in (`?`, a tab
 * by a space); bidirectional and invisible format characters are shown escaped (`\u202e`), as everywhere.
 */
export function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  return escapeControls(text.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, (c) => c === "\t" ? " " : "?"));
}

/** Shorten plain text to `columns` by cutting out its middle (`git statu…--short`); unchanged when it fits. */
export function middleEllipsis(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  const chars = [...text];
  const room = Math.max(1, columns - 1);
  const take = (from: string[], width: number) => {
    const out: string[] = [];
    let w = 0;
    for (const ch of from) {
      if (w + charWidth(ch) > width) break;
      out.push(ch);
      w += charWidth(ch);
    }
    return out;
  };
  const head = take(chars, Math.ceil(room / 2));
  const tail = take([...chars].reverse(), Math.floor(room / 2)).reverse();
  return `${head.join("")}…${tail.join("")}`;
}
