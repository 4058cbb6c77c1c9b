// One background shell's output on disk: appended as it arrives (already redacted), read back in parts: what
// is new since the last read, filtered by line, capped to its newest part.
import { dirname } from "node:path";

/** A log file grows to this many bytes, then moves to `<name>.1.log` (replacing an older one) and starts anew. */
export const MAX_LOG_BYTES = 32 * 1024 * 1024;
/** At most this much unread output is read at once (the newest part of it). */
const READ_BYTES = 512 * 1024;
/** A partial last line longer than this is read even while a filter waits for its end. */
const LONG_LINE = 64 * 1024;

/** What one read returns. */
export interface LogRead {
  /** The new text (only the lines kept by the filter, when one was given). */
  output: string;
  /** What was left out, for the model; absent when nothing was. */
  note?: string;
}

/** An append-only log with a read position. */
export class ShellLog {
  /** The file. */
  readonly path: string;
  #file: Deno.FsFile;
  #enc = new TextEncoder();
  #size = 0;
  #total = 0;
  #read = 0;
  #rotated = false;
  #maxBytes: number;

  /** Create (or truncate) the log at `path`; its folder is made private. */
  constructor(path: string, opts: { maxBytes?: number } = {}) {
    this.path = path;
    this.#maxBytes = opts.maxBytes ?? MAX_LOG_BYTES;
    Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#file = Deno.openSync(path, { write: true, create: true, truncate: true, mode: 0o600 });
  }

  /** Bytes written in all (rotated parts included). */
  get bytes(): number {
    return this.#total;
  }

  /** Append text (already redacted). Never throws: a full disk loses output, not the session. */
  append(text: string): void {
    if (!text) return;
    const bytes = this.#enc.encode(text);
    try {
      if (this.#size + bytes.length > this.#maxBytes && this.#size > 0) this.#rotate();
      let off = 0;
      while (off < bytes.length) off += this.#file.writeSync(bytes.subarray(off));
      this.#size += bytes.length;
      this.#total += bytes.length;
    } catch { /* the output is lost; the shell keeps running */ }
  }

  #rotate(): void {
    this.#file.close();
    Deno.renameSync(this.path, this.#older());
    this.#file = Deno.openSync(this.path, { write: true, create: true, truncate: true, mode: 0o600 });
    if (this.#read < this.#size) this.#rotated = true;
    this.#size = 0;
    this.#read = 0;
  }

  #older(): string {
    return this.path.replace(/(\.log)?$/, ".1.log");
  }

  /**
   * The output since the last read, at most `maxChars` (the newest part). With `keep`, only complete lines it
   * accepts; while the shell runs (`final` false) a partial last line waits for its end.
   */
  readNew(opts: { maxChars: number; keep?: (line: string) => boolean; final: boolean }): LogRead {
    const notes: string[] = [];
    if (this.#rotated) notes.push(`older output is in ${this.#older()}`);
    this.#rotated = false;
    const unread = this.#size - this.#read;
    const from = this.#size - Math.min(unread, READ_BYTES);
    const skipped = from - this.#read;
    let text = this.#decode(this.#slice(from, this.#size), from > this.#read);
    let end = this.#size;
    if (opts.keep && !opts.final) {
      const cut = text.lastIndexOf("\n") + 1;
      const partial = text.length - cut;
      if (partial && partial < LONG_LINE) {
        end -= this.#enc.encode(text.slice(cut)).length;
        text = text.slice(0, cut);
      }
    }
    this.#read = end;
    let dropped = 0;
    if (opts.keep) {
      const lines = text.split("\n");
      if (lines.at(-1) === "") lines.pop();
      const kept = lines.filter((l) => opts.keep!(l));
      dropped = lines.length - kept.length;
      text = kept.length ? kept.join("\n") + "\n" : "";
    }
    let cutChars = 0;
    if (text.length > opts.maxChars) {
      const tail = text.slice(text.length - opts.maxChars);
      const nl = tail.indexOf("\n");
      const start = nl >= 0 && nl < tail.length - 1 ? nl + 1 : 0;
      cutChars = text.length - tail.length + start;
      text = tail.slice(start);
    }
    if (skipped > 0 || cutChars > 0) {
      const older = skipped > 0 ? `${skipped} bytes` : "";
      const chars = cutChars > 0 ? `${cutChars} characters` : "";
      notes.push(
        `the newest output is shown; ${[older, chars].filter(Boolean).join(" and ")} before it are not`,
      );
    }
    if (dropped) notes.push(`${dropped} line(s) did not match the filter`);
    if (notes.length) notes.push(`the whole log is ${this.path} (read_file)`);
    return notes.length ? { output: text, note: notes.join("; ") } : { output: text };
  }

  #slice(from: number, to: number): Uint8Array {
    const buf = new Uint8Array(Math.max(0, to - from));
    if (!buf.length) return buf;
    const f = Deno.openSync(this.path, { read: true });
    try {
      f.seekSync(from, Deno.SeekMode.Start);
      let off = 0;
      while (off < buf.length) {
        const n = f.readSync(buf.subarray(off));
        if (!n) break;
        off += n;
      }
      return buf.subarray(0, off);
    } finally {
      f.close();
    }
  }

  #decode(bytes: Uint8Array, midway: boolean): string {
    let start = 0;
    // Started inside the file: skip the continuation bytes of a character cut in two.
    while (midway && start < bytes.length && start < 4 && (bytes[start] & 0xc0) === 0x80) start++;
    return new TextDecoder().decode(bytes.subarray(start));
  }

  /** Close the file (the log stays on disk). */
  close(): void {
    try {
      this.#file.close();
    } catch { /* closed */ }
  }
}
