// Markdown tables for the terminal: aligned columns with cells wrapped within them, or a list when the
// columns cannot fit the width.
import type { Style } from "./style.ts";
import { textWidth } from "./text_width.ts";
import { wrapRows } from "./wrap.ts";

/** A table row's source line: `| a | b |` (the outer pipes may be missing). */
export function isTableLine(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line) || (/\S\s*\|\s*\S/.test(line) && /^\s*\|/.test(line));
}

/** The delimiter row under a table's header: `|---|:-:|`. */
export function isDelimiterLine(line: string): boolean {
  return /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(line) && line.includes("-");
}

/** The cells of a table row (escaped pipes `\|` stay in their cell). */
export function tableCells(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

type Align = "left" | "right" | "center";

function alignments(delimiter: string, n: number): Align[] {
  const cells = tableCells(delimiter);
  return Array.from({ length: n }, (_, i) => {
    const c = cells[i] ?? "";
    return c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : "left";
  });
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - textWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") {
    return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(gap - Math.floor(gap / 2));
  }
  return text + " ".repeat(gap);
}

/** The narrowest a column may get: its longest word, within [6, 16]. */
function minWidth(cells: string[]): number {
  const longest = Math.max(1, ...cells.flatMap((c) => c.split(/\s+/).map((w) => textWidth(w))));
  return Math.max(Math.min(6, longest), Math.min(16, longest));
}

/** Column widths that fit `room` (the widest columns give way first), or undefined when they cannot. */
function fitWidths(columns: string[][], room: number): number[] | undefined {
  const natural = columns.map((cells) => Math.max(1, ...cells.map(textWidth)));
  const widths = [...natural];
  const mins = columns.map(minWidth).map((m, i) => Math.min(m, natural[i]));
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > room) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i] > mins[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
    }
    if (widest < 0) return undefined;
    widths[widest]--;
    total--;
  }
  return widths;
}

/**
 * Render a table (the header row, the delimiter row, the body rows; cells already rendered inline) for a
 * terminal `columns` wide: box-drawn aligned columns, each cell wrapped within its column; when even the
 * narrowest columns cannot fit, each row becomes a block of `header: value` lines.
 */
export function renderTable(
  rows: { cells: string[] }[],
  opts: { style: Style; columns: number; delimiter: string },
): string[] {
  const { style } = opts;
  const n = Math.max(...rows.map((r) => r.cells.length));
  const grid = rows.map((r) => Array.from({ length: n }, (_, i) => r.cells[i] ?? ""));
  const aligns = alignments(opts.delimiter, n);
  const widths = fitWidths(
    Array.from({ length: n }, (_, i) => grid.map((r) => r[i])),
    opts.columns - (3 * n + 1),
  );
  if (!widths) return tableAsList(grid, opts);
  const line = (l: string, m: string, r: string) =>
    style.dim(l + widths.map((w) => "─".repeat(w + 2)).join(m) + r);
  const out = [line("┌", "┬", "┐")];
  grid.forEach((row, ri) => {
    const wrapped = row.map((c, i) => (c ? wrapRows(c, { columns: widths[i] }) : [""]));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let k = 0; k < height; k++) {
      const cells = wrapped.map((w, i) => {
        const text = w[k] ?? "";
        return ` ${pad(ri === 0 ? style.bold(text) : text, widths[i], ri === 0 ? "left" : aligns[i])} `;
      });
      out.push(style.dim("│") + cells.join(style.dim("│")) + style.dim("│"));
    }
    if (ri === 0) out.push(line("├", "┼", "┤"));
  });
  out.push(line("└", "┴", "┘"));
  return out;
}

function tableAsList(grid: string[][], opts: { style: Style; columns: number }): string[] {
  const [header, ...body] = grid;
  const out: string[] = [];
  body.forEach((row, ri) => {
    if (ri > 0) out.push("");
    row.forEach((cell, i) => {
      const name = header[i] || `column ${i + 1}`;
      out.push(
        ...wrapRows(cell, {
          columns: opts.columns,
          first: `${i === 0 ? "• " : "  "}${opts.style.bold(name)}: `,
          rest: "    ",
        }),
      );
    });
  });
  return out;
}
