/** A named key (arrows, Enter...) with its modifiers. */
export interface NamedKey {
  kind: "key";
  /** `enter`, `tab`, `backspace`, `delete`, `escape`, `up`, `down`, `left`, `right`, `home`, `end`,
   * `pageup`, `pagedown`, `insert`, `newline` (Ctrl-J), or a lower-case letter with `ctrl` or `alt`. */
  name: string;
  ctrl?: boolean;
  alt?: boolean;
  shift?: boolean;
}

/** One input event: typed text (runs of printable characters are joined), a bracketed paste, or a key. */
export type Key = { kind: "text"; text: string } | { kind: "paste"; text: string } | NamedKey;

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const TILDE: Record<string, string> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageup",
  "6": "pagedown",
  "7": "home",
  "8": "end",
};
const FINAL: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  Z: "tab",
};

function control(code: number): NamedKey {
  if (code === 13) return { kind: "key", name: "enter" };
  if (code === 10) return { kind: "key", name: "newline" };
  if (code === 9) return { kind: "key", name: "tab" };
  if (code === 127 || code === 8) return { kind: "key", name: "backspace" };
  if (code === 27) return { kind: "key", name: "escape" };
  if (code === 0) return { kind: "key", name: "space", ctrl: true };
  if (code < 27) return { kind: "key", name: String.fromCharCode(code + 96), ctrl: true };
  return { kind: "key", name: String.fromCharCode(code + 64).toLowerCase(), ctrl: true };
}

function modifiers(param: string | undefined): Pick<NamedKey, "ctrl" | "alt" | "shift"> {
  const m = Number(param ?? 1) - 1;
  const out: Pick<NamedKey, "ctrl" | "alt" | "shift"> = {};
  if (m & 1) out.shift = true;
  if (m & 2) out.alt = true;
  if (m & 4) out.ctrl = true;
  return out;
}

/**
 * Turns terminal input (raw mode bytes) into key events. Escape sequences and bracketed pastes may be split
 * across reads; an Escape at the end of a read stays pending until `flush()` (the caller flushes after a
 * short quiet time) so that a lone Esc key is told apart from the start of a sequence.
 */
export class KeyDecoder {
  #decoder = new TextDecoder();
  #pending = "";
  #paste: string | null = null;

  /** Decode one read; returns the complete events in it. */
  feed(bytes: Uint8Array): Key[] {
    return this.#parse(this.#pending + this.#decoder.decode(bytes, { stream: true }));
  }

  /** Whether input is held back (an Esc or an unfinished sequence or paste). */
  get pending(): boolean {
    return this.#pending !== "" || this.#paste !== null;
  }

  /** Give up waiting (not within a paste): a held Esc becomes the Escape key, an unfinished sequence Escape. */
  flush(): Key[] {
    if (this.#paste !== null) return [];
    const held = this.#pending;
    this.#pending = "";
    return held ? [{ kind: "key", name: "escape" }] : [];
  }

  #parse(input: string): Key[] {
    this.#pending = "";
    const keys: Key[] = [];
    let text = "";
    const push = (k: Key) => {
      if (text) keys.push({ kind: "text", text });
      text = "";
      keys.push(k);
    };
    let i = 0;
    while (i < input.length) {
      if (this.#paste !== null) {
        const end = input.indexOf(PASTE_END, i);
        if (end < 0) {
          const keep = partialSuffix(input.slice(i), PASTE_END);
          this.#paste += input.slice(i, input.length - keep);
          this.#pending = input.slice(input.length - keep);
          break;
        }
        const pasted = this.#paste + input.slice(i, end);
        this.#paste = null;
        push({ kind: "paste", text: pasted.replace(/\r\n?/g, "\n") });
        i = end + PASTE_END.length;
        continue;
      }
      const ch = input[i];
      const code = ch.charCodeAt(0);
      if (ch !== "\x1b") {
        if (code < 32 || code === 127) push(control(code));
        else text += ch;
        i++;
        continue;
      }
      const seq = this.#escape(input, i);
      if (seq === null) {
        this.#pending = input.slice(i);
        break;
      }
      if (seq.key) push(seq.key);
      i = seq.next;
    }
    if (text) keys.push({ kind: "text", text });
    return keys;
  }

  /** Parse an escape sequence at `i`; null when it may continue in the next read. */
  #escape(input: string, i: number): { key?: Key; next: number } | null {
    if (input.startsWith(PASTE_START, i)) {
      this.#paste = "";
      return { next: i + PASTE_START.length };
    }
    const next = input[i + 1];
    if (next === undefined) return null;
    if (next === "[") {
      const body = input.slice(i + 2, i + 34);
      const m = /^([0-9;]*)([\x20-\x2f]*)([\x40-\x7e])/.exec(body);
      if (!m) return body.length < 32 && /^[0-9;\x20-\x2f]*$/.test(body) ? null : { next: i + 2 };
      const [all, params, , final] = m;
      const parts = params.split(";");
      const name = final === "~" ? TILDE[parts[0]] : FINAL[final];
      const next = i + 2 + all.length;
      if (!name) return { next };
      const key: NamedKey = {
        kind: "key",
        name,
        ...modifiers(final === "~" ? parts[1] : parts[1] ?? undefined),
      };
      if (final === "Z") key.shift = true;
      return { key, next };
    }
    if (next === "O") {
      const final = input[i + 2];
      if (final === undefined) return null;
      const name = FINAL[final];
      return { key: name ? { kind: "key", name } : undefined, next: i + 3 };
    }
    if (next === "\x1b") return { key: { kind: "key", name: "escape" }, next: i + 1 };
    const code = next.charCodeAt(0);
    const base: NamedKey = code < 32 || code === 127
      ? control(code)
      : { kind: "key", name: next.toLowerCase(), ...(next !== next.toLowerCase() ? { shift: true } : {}) };
    return { key: { ...base, alt: true }, next: i + 2 };
  }
}

function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
