import { charWidth, printable, textWidth } from "./text_width.ts";

function prevIndex(text: string, i: number): number {
  if (i <= 0) return 0;
  const low = text.charCodeAt(i - 1);
  return i >= 2 && low >= 0xdc00 && low <= 0xdfff ? i - 2 : i - 1;
}

function nextIndex(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const high = text.charCodeAt(i);
  return high >= 0xd800 && high <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
}

/**
 * The text being edited and the cursor (an index into it), with the editing moves of a shell prompt.
 * `atoms` are stretches that backspace removes whole (paste placeholders).
 */
export class LineBuffer {
  text = "";
  cursor = 0;
  atoms: string[] = [];

  /** Replace the text; the cursor goes to `cursor` (default: the end). */
  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  insert(s: string): void {
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  backspace(): void {
    const before = this.text.slice(0, this.cursor);
    const atom = this.atoms.find((a) => before.endsWith(a));
    const from = atom ? this.cursor - atom.length : prevIndex(this.text, this.cursor);
    this.#cut(from, this.cursor);
  }

  deleteForward(): void {
    this.#cut(this.cursor, nextIndex(this.text, this.cursor));
  }

  left(): void {
    this.cursor = prevIndex(this.text, this.cursor);
  }

  right(): void {
    this.cursor = nextIndex(this.text, this.cursor);
  }

  wordLeft(): void {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.text[i - 1])) i--;
    while (i > 0 && !/\s/.test(this.text[i - 1])) i--;
    this.cursor = i;
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && /\s/.test(this.text[i])) i++;
    while (i < this.text.length && !/\s/.test(this.text[i])) i++;
    this.cursor = i;
  }

  /** Start of the current line (Home, Ctrl-A). */
  lineStart(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  /** End of the current line (End, Ctrl-E). */
  lineEnd(): void {
    const end = this.text.indexOf("\n", this.cursor);
    this.cursor = end < 0 ? this.text.length : end;
  }

  /** Ctrl-U: delete from the start of the line to the cursor. */
  killToLineStart(): void {
    this.#cut(this.text.lastIndexOf("\n", this.cursor - 1) + 1, this.cursor);
  }

  /** Ctrl-K: delete from the cursor to the end of the line. */
  killToLineEnd(): void {
    const end = this.text.indexOf("\n", this.cursor);
    this.#cut(this.cursor, end < 0 ? this.text.length : end);
  }

  /** Ctrl-W, Alt-Backspace: delete the word before the cursor. */
  deleteWordBack(): void {
    const end = this.cursor;
    this.wordLeft();
    this.#cut(this.cursor, end);
  }

  /** Move to the line above; false when already on the first line. */
  up(): boolean {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    if (start === 0) return false;
    const column = this.cursor - start;
    const prevStart = this.text.lastIndexOf("\n", start - 2) + 1;
    this.cursor = Math.min(prevStart + column, start - 1);
    return true;
  }

  /** Move to the line below; false when already on the last line. */
  down(): boolean {
    const end = this.text.indexOf("\n", this.cursor);
    if (end < 0) return false;
    const column = this.cursor - (this.text.lastIndexOf("\n", this.cursor - 1) + 1);
    const nextEnd = this.text.indexOf("\n", end + 1);
    this.cursor = Math.min(end + 1 + column, nextEnd < 0 ? this.text.length : nextEnd);
    return true;
  }

  #cut(from: number, to: number): void {
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }
}

/** Rows to draw for a prompt and its text, and where the cursor goes (row from the top, column). */
export interface Layout {
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

/**
 * Lay out `prompt` + `text` on a terminal `columns` wide: lines after the first start with `continuation`,
 * long lines wrap, control characters show as `?`. A cursor past the last column starts a new row.
 */
export function layout(
  text: string,
  cursor: number,
  opts: { prompt: string; promptWidth: number; continuation: string; columns: number },
): Layout {
  const columns = Math.max(10, opts.columns);
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  const contWidth = opts.continuation.length;
  text.split("\n").forEach((line, li) => {
    let row = li === 0 ? opts.prompt : opts.continuation;
    let col = li === 0 ? opts.promptWidth : contWidth;
    let i = 0;
    while (i < line.length) {
      const ch = line.slice(i, nextIndex(line, i));
      const shown = printable(ch);
      const w = shown === ch ? charWidth(ch) : textWidth(shown);
      if (col + w > columns) {
        rows.push(row);
        row = "";
        col = 0;
      }
      if (offset + i === cursor) [cursorRow, cursorCol] = [rows.length, col];
      row += shown;
      col += w;
      i += ch.length;
    }
    if (offset + line.length === cursor) {
      if (col >= columns) {
        rows.push(row);
        row = "";
        col = 0;
      }
      [cursorRow, cursorCol] = [rows.length, col];
    }
    rows.push(row);
    offset += line.length + 1;
  });
  return { rows, cursorRow, cursorCol };
}
