/** Colors that respect NO_COLOR and a non-terminal stream. */
export interface Style {
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  italic(s: string): string;
  underline(s: string): string;
  strike(s: string): string;
  /** Whether colours are on (false: plain text, e.g. NO_COLOR or not a terminal). */
  readonly on: boolean;
}

/** Build a Style for a stream; plain text when NO_COLOR is set or the stream is not a terminal. */
export function makeStyle(
  isTerminal: boolean,
  env: { get(k: string): string | undefined } = Deno.env,
): Style {
  const on = isTerminal && !env.get("NO_COLOR");
  const wrap = (a: number, b: number) => (s: string) => on ? `\x1b[${a}m${s}\x1b[${b}m` : s;
  return {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    italic: wrap(3, 23),
    underline: wrap(4, 24),
    strike: wrap(9, 29),
    on,
  };
}

/** Shorten text to `max` characters on one line. */
export function shorten(text: string, max = 80): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}

/** The length of text as shown on a terminal (ANSI color codes do not count). */
export function visibleLength(text: string): number {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").length;
}

/** Format rows as aligned columns (colored cells align like plain ones). */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(c))));
  return rows.map((row) =>
    row.map((c, i) => (i === row.length - 1 ? c : c + " ".repeat(widths[i] - visibleLength(c)))).join("  ")
      .trimEnd()
  ).join("\n");
}
