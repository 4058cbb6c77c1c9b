// The REPL's line editor: keys to edits, history, Tab completion, multi-line input, redraw within the window.
// Over 300 lines because the editor is one state machine over one buffer.
import type { History } from "./history.ts";
import type { Key } from "./keys.ts";
import { layout, LineBuffer } from "./line_buffer.ts";
import type { KeySource, TermOut } from "./terminal.ts";
import { textWidth } from "./text_width.ts";

/** Candidates that replace the text from `start` to the cursor. */
export interface Completion {
  start: number;
  items: string[];
}

/** Finds completions for the text before the cursor. */
export type Completer = (
  text: string,
  cursor: number,
) => Completion | undefined | Promise<Completion | undefined>;

/**
 * How a read ended: a submitted line, Ctrl-D on an empty line, Ctrl-C (Esc for a question), or Esc pressed
 * twice on an empty prompt (the REPL opens /rewind).
 */
export type LineResult = { kind: "line"; text: string } | { kind: "eof" } | {
  kind: "interrupt";
  text: string;
} | { kind: "double-escape" };

/** Two Esc presses this close together on an empty prompt make a double Esc. */
const DOUBLE_ESCAPE_MS = 1000;

/** Options of one `readLine`. */
export interface ReadLineOptions {
  /** Shown before the text (may carry colour codes). */
  prompt: string;
  history?: History;
  complete?: Completer;
  /** Text to start with (type-ahead). */
  initial?: string;
  /** A one-line answer to a question: no multi-line, pastes inline, Esc cancels. */
  simple?: boolean;
}

/** Call `fn` when the terminal is resized (SIGWINCH); returns the function that stops it. */
function onResize(fn: () => void): () => void {
  try {
    Deno.addSignalListener("SIGWINCH", fn);
    return () => Deno.removeSignalListener("SIGWINCH", fn);
  } catch {
    return () => {};
  }
}

/** Pastes longer than this (characters or lines) show as a placeholder and are sent whole. */
export const FOLD_CHARS = 1000;
const FOLD_LINES = 12;

interface Search {
  query: string;
  index: number;
  saved: { text: string; cursor: number };
}

/**
 * A raw-mode line editor: multi-line input (Alt-Enter, or `\` before Enter), bracketed paste in one piece,
 * history with Up/Down and Ctrl-R, Tab completion, the usual Emacs keys. It draws only its own rows.
 */
export class LineEditor {
  #input: KeySource;
  #out: TermOut;
  #pasteCount = 0;
  #active?: EditSession;

  /** Read keys from `input`, draw on `out`. */
  constructor(input: KeySource, out: TermOut) {
    this.#input = input;
    this.#out = out;
  }

  /** Read one line (or a multi-line message); resolves when it is submitted or abandoned. */
  readLine(opts: ReadLineOptions): Promise<LineResult> {
    return new Promise((resolve) => {
      const session = new EditSession(this.#out, opts, () => ++this.#pasteCount);
      this.#active = session;
      let chain = Promise.resolve();
      let done = false;
      let unlisten = () => {};
      const pop = this.#input.push((keys) => {
        chain = chain.then(async () => {
          for (const key of keys) {
            if (done) return;
            const result = await session.handle(key);
            if (result) {
              done = true;
              if (this.#active === session) this.#active = undefined;
              pop();
              unlisten();
              resolve(result);
            }
          }
          if (!done) session.render();
        });
      });
      session.render();
      // A resize reflows what is drawn: the input is drawn again for the new width.
      unlisten = onResize(() => void (chain = chain.then(() => void (done || session.render()))));
    });
  }

  /** Print a line above the input being edited (a notice); plain output when nothing is being read. */
  above(text: string): void {
    const session = this.#active;
    if (!session) return this.#out.write(text.replace(/\n/g, "\r\n"));
    session.clear();
    this.#out.write(text.replace(/\n/g, "\r\n"));
    session.render();
  }
}

class EditSession {
  buf = new LineBuffer();
  #out: TermOut;
  #opts: ReadLineOptions;
  #pastes = new Map<string, string>();
  #nextPaste: () => number;
  #cursorRow = 0;
  /** Widths of the rows last drawn, and the cursor's column then: how far up the drawing starts, even after
   * the terminal was resized and reflowed them. */
  #drawn: { widths: number[]; cursorCol: number } = { widths: [], cursorCol: 0 };
  #historyIndex: number;
  #draft = "";
  #search?: Search;
  #escapeAt = -Infinity;

  constructor(out: TermOut, opts: ReadLineOptions, nextPaste: () => number) {
    this.#out = out;
    this.#opts = opts;
    this.#nextPaste = nextPaste;
    this.#historyIndex = opts.history?.entries.length ?? 0;
    if (opts.initial) this.buf.set(opts.initial);
  }

  async handle(key: Key): Promise<LineResult | undefined> {
    if (this.#search) return this.#handleSearch(key);
    const { buf } = this;
    if (key.kind === "text") buf.insert(key.text);
    else if (key.kind === "paste") this.#paste(key.text);
    else if (key.name === "enter" && !key.alt) {
      if (!this.#opts.simple && buf.cursor === buf.text.length && buf.text.endsWith("\\")) {
        buf.set(buf.text.slice(0, -1) + "\n");
      } else return this.#submit();
    } else if ((key.name === "enter" && key.alt) || key.name === "newline") {
      if (!this.#opts.simple) buf.insert("\n");
    } else if (key.ctrl && key.name === "c") return this.#finish({ kind: "interrupt", text: this.#expand() });
    else if (key.name === "closed") return this.#finish({ kind: "eof" });
    else if (key.ctrl && key.name === "d") {
      if (!buf.text) return this.#finish({ kind: "eof" });
      buf.deleteForward();
    } else if (key.name === "escape") {
      if (this.#opts.simple) return this.#finish({ kind: "interrupt", text: buf.text });
      if (buf.text === "") {
        if (performance.now() - this.#escapeAt < DOUBLE_ESCAPE_MS) {
          return this.#finish({ kind: "double-escape" });
        }
        this.#escapeAt = performance.now();
      }
    } else if (key.name === "tab" && !key.shift) await this.#complete();
    else if (key.ctrl && key.name === "r" && this.#opts.history) {
      this.#search = { query: "", index: -1, saved: { text: buf.text, cursor: buf.cursor } };
    } else if (key.ctrl && key.name === "l") {
      this.#out.write("\x1b[2J\x1b[H");
      this.#cursorRow = 0;
    } else this.#edit(key);
    return undefined;
  }

  #edit(key: Key & { kind: "key" }): void {
    const { buf } = this;
    const { name, ctrl, alt } = key;
    if (name === "backspace") alt ? buf.deleteWordBack() : buf.backspace();
    else if (name === "delete") buf.deleteForward();
    else if (name === "left" || (ctrl && name === "b")) ctrl || alt ? buf.wordLeft() : buf.left();
    else if (name === "right" || (ctrl && name === "f")) ctrl || alt ? buf.wordRight() : buf.right();
    else if (alt && name === "b") buf.wordLeft();
    else if (alt && name === "f") buf.wordRight();
    else if (name === "home" || (ctrl && name === "a")) buf.lineStart();
    else if (name === "end" || (ctrl && name === "e")) buf.lineEnd();
    else if (ctrl && name === "u") buf.killToLineStart();
    else if (ctrl && name === "k") buf.killToLineEnd();
    else if (ctrl && name === "w") buf.deleteWordBack();
    else if (name === "up" || (ctrl && name === "p")) {
      if (name === "p" || !buf.up()) this.#historyMove(-1);
    } else if (name === "down" || (ctrl && name === "n")) {
      if (name === "n" || !buf.down()) this.#historyMove(1);
    }
  }

  #historyMove(step: number): void {
    const entries = this.#opts.history?.entries ?? [];
    const next = this.#historyIndex + step;
    if (next < 0 || next > entries.length) return;
    if (this.#historyIndex === entries.length) this.#draft = this.buf.text;
    this.#historyIndex = next;
    this.buf.set(next === entries.length ? this.#draft : entries[next]);
  }

  #handleSearch(key: Key): LineResult | undefined {
    const search = this.#search!;
    const history = this.#opts.history!;
    const find = (before: number) => (search.index = history.search(search.query, before));
    if (key.kind !== "key") {
      search.query += key.text.replace(/\n/g, " ");
      find(search.index >= 0 ? search.index + 1 : history.entries.length);
      return undefined;
    }
    if (key.name === "backspace") {
      search.query = search.query.slice(0, -1);
      find(history.entries.length);
    } else if (key.ctrl && key.name === "r") find(search.index >= 0 ? search.index : history.entries.length);
    else if ((key.ctrl && (key.name === "c" || key.name === "g")) || key.name === "escape") {
      this.#search = undefined;
      this.buf.set(search.saved.text, search.saved.cursor);
    } else {
      this.#search = undefined;
      if (search.index >= 0) this.buf.set(history.entries[search.index]);
      if (key.name === "enter") return this.#submit();
    }
    return undefined;
  }

  #paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, "\n");
    if (this.#opts.simple) return this.buf.insert(text.replace(/\n/g, " "));
    const lines = text.split("\n").length;
    if (text.length <= FOLD_CHARS && lines <= FOLD_LINES) return this.buf.insert(text);
    const n = this.#nextPaste();
    const size = lines > 1 ? `${lines} lines, ${text.length} chars` : `${text.length} chars`;
    const placeholder = `[pasted text #${n}: ${size}]`;
    this.#pastes.set(placeholder, text);
    this.buf.atoms.push(placeholder);
    this.buf.insert(placeholder);
  }

  async #complete(): Promise<void> {
    const { buf } = this;
    const found = await this.#opts.complete?.(buf.text, buf.cursor);
    if (!found?.items.length) return;
    const typed = buf.text.slice(found.start, buf.cursor);
    const replace = (s: string) => {
      buf.set(buf.text.slice(0, found.start) + s + buf.text.slice(buf.cursor), found.start + s.length);
    };
    if (found.items.length === 1) {
      const item = found.items[0];
      return replace(item.endsWith("/") || item.endsWith(":") ? item : item + " ");
    }
    const common = found.items.reduce((a, b) => {
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return a.slice(0, i);
    });
    if (common.length > typed.length) return replace(common);
    this.render(true);
    const shown = found.items.slice(0, 40);
    const width = Math.max(...shown.map((s) => textWidth(s))) + 2;
    const perRow = Math.max(1, Math.floor(this.#out.columns() / width));
    const rows: string[] = [];
    for (let i = 0; i < shown.length; i += perRow) {
      rows.push(shown.slice(i, i + perRow).map((s) => s.padEnd(width)).join("").trimEnd());
    }
    if (found.items.length > shown.length) rows.push(`… ${found.items.length - shown.length} more`);
    this.#out.write(rows.join("\r\n") + "\r\n");
  }

  #expand(): string {
    let text = this.buf.text;
    for (const [placeholder, content] of this.#pastes) text = text.split(placeholder).join(content);
    return text;
  }

  #submit(): LineResult {
    const text = this.#expand();
    this.#opts.history?.add(text);
    return this.#finish({ kind: "line", text });
  }

  #finish(result: LineResult): LineResult {
    this.render(true);
    return result;
  }

  /** Rows from the top of the last drawing to the cursor, at the terminal's width now (rows reflow). */
  #rowsUp(): number {
    const columns = Math.max(1, this.#out.columns());
    const span = (w: number) => Math.max(1, Math.ceil(w / columns));
    let up = 0;
    for (let i = 0; i < this.#cursorRow; i++) up += span(this.#drawn.widths[i] ?? 0);
    return up + Math.floor(this.#drawn.cursorCol / columns);
  }

  /** Rows the last drawing takes at the terminal's width now. */
  #rowsDrawn(): number {
    const columns = Math.max(1, this.#out.columns());
    return this.#drawn.widths.reduce((n, w) => n + Math.max(1, Math.ceil(w / columns)), 0);
  }

  /** Remove the drawing (the cursor ends where the prompt started). */
  clear(): void {
    // Row by row, not "erase below" from the top-left corner, which some terminals (tmux) first copy into
    // their scrollback: the input would stay there as a stray row.
    const up = this.#rowsUp();
    const rows = this.#rowsDrawn();
    const below = rows > 1 ? "\x1b[1B\x1b[2K".repeat(rows - 1) + `\x1b[${rows - 1}A` : "";
    this.#out.write("\r" + (up > 0 ? `\x1b[${up}A` : "") + "\x1b[2K" + below);
    this.#cursorRow = 0;
    this.#drawn = { widths: [], cursorCol: 0 };
  }

  /** Draw the prompt and text over the previous drawing; `final` leaves the cursor below it. */
  render(final = false): void {
    const search = this.#search;
    const history = this.#opts.history;
    const match = search && search.index >= 0 ? history!.entries[search.index] : undefined;
    const prompt = search
      ? `(${match === undefined && search.query ? "failing " : ""}reverse-i-search)'${search.query}': `
      : this.#opts.prompt;
    const text = search ? match ?? "" : this.buf.text;
    const cursor = search ? Math.max(0, (match ?? "").indexOf(search.query)) : this.buf.cursor;
    const lay = layout(text, cursor, {
      prompt,
      promptWidth: textWidth(prompt),
      continuation: "  ",
      columns: this.#out.columns(),
    });
    let { rows, cursorRow } = lay;
    const max = Math.max(3, this.#out.rows() - 1);
    if (rows.length > max) {
      const start = Math.min(Math.max(0, cursorRow - max + 1), rows.length - max);
      rows = rows.slice(start, start + max);
      cursorRow -= start;
    }
    const back = this.#rowsUp();
    let s = "\r" + (back > 0 ? `\x1b[${back}A` : "") + rows.map((r) => r + "\x1b[K").join("\r\n") + "\x1b[J";
    if (final) {
      s += "\r\n";
      this.#cursorRow = 0;
      this.#drawn = { widths: [], cursorCol: 0 };
    } else {
      const up = rows.length - 1 - cursorRow;
      s += (up > 0 ? `\x1b[${up}A` : "") + "\r" + (lay.cursorCol > 0 ? `\x1b[${lay.cursorCol}C` : "");
      this.#cursorRow = cursorRow;
      this.#drawn = { widths: rows.map((r) => textWidth(r)), cursorCol: lay.cursorCol };
    }
    this.#out.write(s);
  }
}
