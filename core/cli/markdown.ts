import { Lexer, type Token, type Tokens } from "marked";
import type { Style } from "./style.ts";
import { escapeControls as printable } from "../output/mod.ts";
import { isDelimiterLine, isTableLine, renderTable, tableCells } from "./md_table.ts";
import { textWidth, wrapText } from "./text_width.ts";
import { wrapLine } from "./wrap.ts";

/** Highlights one line of code in a language; undefined when it cannot (unknown language, not loaded). */
export type HighlightLine = (lang: string, code: string) => string | undefined;

function inline(tokens: Token[] | undefined, style: Style): string {
  return (tokens ?? []).map((t) => {
    const tok = t as Tokens.Generic;
    switch (t.type) {
      case "strong":
        return style.bold(inline(tok.tokens, style));
      case "em":
        return style.italic(inline(tok.tokens, style));
      case "del":
        return style.strike(inline(tok.tokens, style));
      case "codespan":
        return style.cyan(printable(tok.text));
      case "link": {
        const text = inline(tok.tokens, style);
        const href = printable(tok.href ?? "");
        return text === href || !href
          ? style.underline(text)
          : `${style.underline(text)} ${style.dim(`(${href})`)}`;
      }
      case "image":
        return style.dim(`[image: ${printable(tok.text || tok.href || "")}]`);
      case "br":
        return "";
      case "text":
        return tok.tokens?.length ? inline(tok.tokens, style) : printable(tok.text);
      default:
        return printable(tok.raw ?? tok.text ?? "");
    }
  }).join("");
}

/** Render one complete source line outside a code fence, wrapped at words to `columns` (hanging indents). */
export function renderLine(source: string, style: Style, columns = Infinity): string {
  const indent = /^\s*/.exec(source)![0];
  const wrap = (text: string, first: string, rest?: string) =>
    columns === Infinity ? first + text : wrapLine(text, { columns, first, rest });
  const [block] = new Lexer().lex(source);
  if (!block) return "";
  const tok = block as Tokens.Generic;
  switch (block.type) {
    case "heading": {
      const text = inline(tok.tokens, style);
      if (tok.depth > 2) return wrap(style.bold(text), style.dim(`${"#".repeat(tok.depth)} `));
      const rule = (tok.depth === 1 ? "═" : "─").repeat(Math.min(textWidth(text), columns));
      return `${wrap(style.bold(text), "")}\n${style.dim(rule)}`;
    }
    case "list": {
      const item = (block as Tokens.List).items[0];
      const bullet = (block as Tokens.List).ordered ? `${(block as Tokens.List).start || 1}.` : "•";
      const check = item.task ? (item.checked ? "☑ " : "☐ ") : "";
      const text = inline(item.tokens.flatMap((t) => (t as Tokens.Generic).tokens ?? [t]), style);
      return wrap(
        `${check}${text}`,
        `${indent}${style.cyan(bullet)} `,
        " ".repeat(indent.length + bullet.length + 1),
      );
    }
    case "blockquote":
      return wrap(
        style.italic(inline((tok.tokens?.[0] as Tokens.Generic)?.tokens, style)),
        style.dim("│ "),
        style.dim("│ "),
      );
    case "hr":
      return style.dim("─".repeat(Math.min(40, columns)));
    case "paragraph":
      return wrap(inline(tok.tokens, style), indent, indent);
    case "code":
      return style.dim(printable(source));
    case "space":
      return "";
    default:
      return wrap(printable(source), "");
  }
}

/** A code line under the fence's gutter; a line too long for the terminal wraps with the gutter kept. */
function codeLine(code: string, opts: { style: Style; columns: number }): string {
  const gutter = opts.style.dim("│ ");
  return wrapText(code, Math.max(10, opts.columns - 2)).map((row) => gutter + row).join("\n");
}

/**
 * Renders streamed markdown line by line: a line is drawn raw while it streams and replaced by its rendered
 * form when its newline arrives (headings, emphasis, lists, quotes, code fences with highlighting, prose
 * wrapped at words). A table is held until its last row and then drawn aligned.
 */
export class MarkdownStream {
  #write: (text: string) => void;
  #style: Style;
  #columns: () => number;
  #highlight?: HighlightLine;
  #partial = "";
  #fence?: { marker: string; lang: string };
  #table: string[] = [];
  #redact: (text: string) => string;

  /**
   * Draw through `write`, `columns` wide; `highlight` colours code lines when it can; `redact` is what the
   * sink will do to the text (secrets out), so that a streamed line is erased by the rows it really took.
   */
  constructor(
    opts: {
      write(text: string): void;
      style: Style;
      columns(): number;
      highlight?: HighlightLine;
      redact?: (text: string) => string;
    },
  ) {
    this.#redact = opts.redact ?? ((t) => t);
    this.#write = opts.write;
    this.#style = opts.style;
    this.#columns = opts.columns;
    this.#highlight = opts.highlight;
  }

  /** Whether a partial line is on screen (the cursor is not at a line start). */
  get midLine(): boolean {
    return this.#partial !== "";
  }

  /** Take a piece of streamed text. */
  push(delta: string): void {
    const parts = delta.split("\n");
    const last = parts.pop()!;
    if (!parts.length) {
      this.#write(printable(last));
      this.#partial += last;
      return;
    }
    parts[0] = this.#partial + parts[0];
    this.#write(this.#erasePartial() + parts.map((line) => this.#line(line)).join(""));
    this.#partial = last;
    if (last) this.#write(printable(last));
  }

  /** The answer ended (or was interrupted): render what is left of the last line (and a held table); the
   * cursor ends at the start of a line. */
  end(): void {
    const erase = this.#erasePartial();
    const rest = this.#partial ? this.#line(this.#partial) : "";
    this.#partial = "";
    this.#write(erase + rest + this.#flushTable());
  }

  /** What erases the streamed partial line ("" when there is none); written with its replacement in one write,
   * so that no screen ever shows the line gone. */
  #erasePartial(): string {
    if (!this.#partial) return "";
    const rows = wrapText(this.#redact(printable(this.#partial)), this.#columns()).length;
    return "\r" + (rows > 1 ? `\x1b[${rows - 1}A` : "") + "\x1b[J";
  }

  /** The rendered rows for one complete source line, each ending in a newline ("" while a table is held). */
  #line(source: string): string {
    const style = this.#style;
    const columns = this.#columns();
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(source);
    if (this.#fence) {
      if (fence && fence[1].startsWith(this.#fence.marker) && !fence[2]) {
        this.#fence = undefined;
        return style.dim("└─") + "\n";
      }
      const code = printable(source);
      return codeLine(this.#highlight?.(this.#fence.lang, code) ?? code, { style, columns }) + "\n";
    }
    if (isTableLine(source) || (this.#table.length === 1 && isDelimiterLine(source))) {
      this.#table.push(source);
      return "";
    }
    const table = this.#flushTable();
    if (fence) {
      this.#fence = { marker: fence[1], lang: fence[2].toLowerCase() };
      return table + style.dim(`┌─ ${fence[2] || "code"}`) + "\n";
    }
    return table + renderLine(source, style, columns) + "\n";
  }

  /** The held table rows, drawn: aligned when a delimiter row follows the header, else as plain lines. */
  #flushTable(): string {
    const lines = this.#table;
    if (!lines.length) return "";
    this.#table = [];
    const style = this.#style;
    const cells = (line: string) => tableCells(line).map((c) => inline(new Lexer().inlineTokens(c), style));
    if (lines.length < 2 || !isDelimiterLine(lines[1])) {
      return lines.map((l) => renderLine(l.replace(/\|/g, " │ ").trim(), style, this.#columns()) + "\n").join(
        "",
      );
    }
    const rows = [lines[0], ...lines.slice(2)].map((l) => ({ cells: cells(l) }));
    return renderTable(rows, { style, columns: this.#columns(), delimiter: lines[1] }).map((r) => r + "\n")
      .join("");
  }
}
