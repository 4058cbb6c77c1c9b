/** Prompt history: newest last, kept in a file (one entry a line; entries with newlines as JSON strings). */
export class History {
  /** Oldest first. */
  entries: string[] = [];
  #file?: string;
  #max: number;

  /** Load `file` when given (a missing file is an empty history); keep at most `max` entries. */
  constructor(file?: string, max = 1000) {
    this.#file = file;
    this.#max = max;
    if (!file) return;
    try {
      this.entries = Deno.readTextFileSync(file).split("\n").filter(Boolean).map(decode).slice(-max);
    } catch { /* no history yet */ }
  }

  /** Add an entry (not a repeat of the last one, not a huge paste) and append it to the file. */
  add(entry: string): void {
    if (!entry.trim() || entry.length > 10_000 || this.entries.at(-1) === entry) return;
    this.entries.push(entry);
    if (this.entries.length > this.#max) this.entries.shift();
    if (!this.#file) return;
    try {
      Deno.writeTextFileSync(this.#file, encode(entry) + "\n", { append: true, mode: 0o600 });
    } catch { /* history is a convenience */ }
  }

  /** The newest entry before index `before` that contains `query`, or -1. */
  search(query: string, before = this.entries.length): number {
    for (let i = Math.min(before, this.entries.length) - 1; i >= 0; i--) {
      if (this.entries[i].includes(query)) return i;
    }
    return -1;
  }
}

function encode(entry: string): string {
  return entry.includes("\n") || entry.startsWith('"') ? JSON.stringify(entry) : entry;
}

function decode(line: string): string {
  if (!line.startsWith('"')) return line;
  try {
    const value = JSON.parse(line);
    return typeof value === "string" ? value : line;
  } catch {
    return line;
  }
}
