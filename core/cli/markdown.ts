import { Lexer, type Token, type Tokens } from "marked";
import type { Style } from "./style.ts";
import { escapeControls as printable } from "../output/mod.ts";
import { wrapText } from "./text_width.ts";

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

/** Render one complete source line outside a code fence. */
export function renderLine(source: string, style: Style): string {
  const indent = /^\s*/.exec(source)![0];
  if (/^\s*\|.*\|\s*$/.test(source)) {
    if (/^\s*\|[\s:|-]+\|\s*$/.test(source)) return style.dim(printable(source));
    const cells = source.trim().slice(1, -1).split("|");
    return indent + style.dim("│") + cells.map((c) =>
      inline(new Lexer().inlineTokens(c), style)
    ).join(style.dim("│")) +
      style.dim("│");
  }
  const [block] = new Lexer().lex(source);
  if (!block) return "";
  const tok = block as Tokens.Generic;
  switch (block.type) {
    case "heading": {
      const text = inline(tok.tokens, style);
      return style.bold(tok.depth <= 2 ? style.underline(text) : text);
    }
    case "list": {
      const item = (block as Tokens.List).items[0];
      const bullet = (block as Tokens.List).ordered ? `${(block as Tokens.List).start || 1}.` : "•";
      const check = item.task ? (item.checked ? "☑ " : "☐ ") : "";
      return `${indent}${style.cyan(bullet)} ${check}${
        inline(item.tokens.flatMap((t) => (t as Tokens.Generic).tokens ?? [t]), style)
      }`;
    }
    case "blockquote":
      return style.dim("│ ") + style.italic(inline((tok.tokens?.[0] as Tokens.Generic)?.tokens, style));
    case "hr":
      return style.dim("─".repeat(40));
    case "paragraph":
      return indent + inline(tok.tokens, style);
    case "code":
      return style.dim(printable(source));
    case "space":
      return "";
    default:
      return printable(source);
  }
}

/**
 * Renders streamed markdown line by line: a line is drawn raw while it streams and replaced by its rendered
 * form when its newline arrives (headings, emphasis, lists, quotes, tables, code fences with highlighting).
 */
export class MarkdownStream {
  #write: (text: string) => void;
  #style: Style;
  #columns: () => number;
  #highlight?: HighlightLine;
  #partial = "";
  #fence?: { marker: string; lang: string };

  /** Draw through `write`, `columns` wide; `highlight` colours code lines when it can. */
  constructor(
    opts: { write(text: string): void; style: Style; columns(): number; highlight?: HighlightLine },
  ) {
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
    this.#erasePartial();
    this.#write(parts.map((line) => this.#line(line) + "\n").join(""));
    this.#partial = last;
    if (last) this.#write(printable(last));
  }

  /** The answer ended (or was interrupted): render what is left of the last line. */
  end(): void {
    if (!this.#partial) return;
    this.#erasePartial();
    this.#write(this.#line(this.#partial));
    this.#partial = "";
  }

  #erasePartial(): void {
    if (!this.#partial) return;
    const rows = wrapText(printable(this.#partial), this.#columns()).length;
    this.#write("\r" + (rows > 1 ? `\x1b[${rows - 1}A` : "") + "\x1b[J");
  }

  #line(source: string): string {
    const style = this.#style;
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(source);
    if (this.#fence) {
      if (fence && fence[1].startsWith(this.#fence.marker) && !fence[2]) {
        this.#fence = undefined;
        return style.dim("└─");
      }
      const code = printable(source);
      return style.dim("│ ") + (this.#highlight?.(this.#fence.lang, code) ?? code);
    }
    if (fence) {
      this.#fence = { marker: fence[1], lang: fence[2].toLowerCase() };
      return style.dim(`┌─ ${fence[2] || "code"}`);
    }
    return renderLine(source, style);
  }
}
