/**
 * What a shell command line may run, as word lists with the quoting removed, for deny rules. The words come
 * from `shell-quote` (quotes, escapes, operators); a quote-aware pre-pass covers what it leaves out: newlines
 * as separators, `#` inside a word, `$'...'` quoting, `$IFS` as a space, and commands inside `$(...)`,
 * backticks and `<(...)`, which run even inside double quotes. Wrappers (`sudo`, `env`, `command`, ...),
 * `bash -c '...'`, `eval` and `find -exec` are looked through. This is a generous reading for deny rules, not
 * a shell: variables, aliases, functions and scripts are not followed.
 */
import { parse } from "shell-quote";

const MAX_DEPTH = 8;
const MAX_COMMANDS = 500;
/** How many words after a wrapper may be the command it runs (its options' values come first). */
const MAX_WRAPPED = 6;
const PLACEHOLDER = "__navi_subst__";
const SEPARATORS = new Set([";", "&&", "||", "|", "|&", "&", ";;", "(", ")", "<(", ">("]);
const WRAPPERS = new Set([
  "sudo",
  "doas",
  "env",
  "command",
  "builtin",
  "exec",
  "nohup",
  "nice",
  "ionice",
  "time",
  "timeout",
  "stdbuf",
  "setsid",
  "xargs",
  "busybox",
  "unbuffer",
  "watch",
  "chroot",
  "strace",
  "ltrace",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
const RESERVED = new Set(["!", "{", "}", "if", "then", "else", "elif", "do", "while", "until", "fi", "done"]);

/** The index of the `)` that closes the `(` before `from`, skipping quoted text; -1 when unbalanced. */
function closingParen(src: string, from: number): number {
  let depth = 1;
  let quote = "";
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
    } else if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

function ansiC(body: string): string {
  const decoded = body.replace(
    /\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g,
    (_, e: string) =>
      e[0] === "x"
        ? String.fromCharCode(parseInt(e.slice(1), 16))
        : /^[0-7]/.test(e)
        ? String.fromCharCode(parseInt(e, 8))
        : ({ n: "\n", t: "\t", r: "\r", e: "\x1b", a: "\x07" } as Record<string, string>)[e] ?? e,
  );
  return `'${decoded.replaceAll("'", `'"'"'`)}'`;
}

/** Rewrite `src` so that shell-quote reads it as a shell would; command substitutions go to `nested`. */
function prepare(src: string, nested: string[]): string {
  let out = "";
  let quote = "";
  let wordStart = true;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    const next = src[i + 1];
    if (quote === "'") {
      out += c;
      if (c === "'") quote = "";
      continue;
    }
    if (c === "\\") {
      if (next !== "\n") out += c + (next ?? "");
      i++;
      wordStart = false;
      continue;
    }
    const subst = (c === "$" || (!quote && (c === "<" || c === ">"))) && next === "(" && src[i + 2] !== "(";
    if (subst || c === "`") {
      const end = c === "`" ? src.indexOf("`", i + 1) : closingParen(src, i + 2);
      const stop = end < 0 ? src.length : end;
      nested.push(src.slice(c === "`" ? i + 1 : i + 2, stop).replaceAll("\\`", "`"));
      out += PLACEHOLDER;
      i = stop;
      wordStart = false;
      continue;
    }
    if (quote === '"') {
      out += c;
      if (c === '"') quote = "";
      continue;
    }
    if (c === "$" && next === "'") {
      const end = src.slice(i + 2).search(/(?<!\\)'/);
      const stop = end < 0 ? src.length : i + 2 + end;
      out += ansiC(src.slice(i + 2, stop));
      i = stop;
      wordStart = false;
      continue;
    }
    const ifs = /^\$(IFS\b|\{IFS\})/.exec(src.slice(i));
    if (ifs) {
      out += " ";
      i += ifs[0].length - 1;
      wordStart = true;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if (c === "\n") out += ";";
    else if (c === "#" && !wordStart) out += "\\#";
    else out += c;
    wordStart = /[\s;&|()<>]/.test(c);
  }
  return out;
}

type Token = ReturnType<typeof parse>[number];

function segments(tokens: Token[]): string[][] {
  const out: string[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (typeof t === "string") out.at(-1)!.push(t);
    else if ("comment" in t) break;
    else if ("pattern" in t) out.at(-1)!.push(t.pattern);
    else if (!("op" in t)) continue;
    else if (SEPARATORS.has(t.op)) out.push([]);
    else {
      const words = out.at(-1)!;
      if (words.length && /^\d+$/.test(words.at(-1)!)) words.pop();
      if (typeof tokens[i + 1] === "string") i++;
    }
  }
  return out.filter((words) => words.length);
}

const basename = (word: string) => word.slice(word.lastIndexOf("/") + 1);
const isAssignment = (word: string) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);

type Found = Map<string, string[]>;

function lookInside(rest: string[], depth: number, found: Found): void {
  const program = basename(rest[0]);
  const args = rest.slice(1);
  if (SHELLS.has(program) && args.some((w) => /^-[a-z]*c/.test(w))) {
    for (const w of args) if (!w.startsWith("-")) collect(w, depth + 1, found);
  } else if (program === "eval") {
    collect(args.join(" "), depth + 1, found);
  } else if (program === "find") {
    args.forEach((w, i) => {
      if (!/^-(exec|execdir|ok|okdir)$/.test(w)) return;
      const end = args.findIndex((x, j) => j > i && (x === ";" || x === "+"));
      lookThrough(args.slice(i + 1, end < 0 ? undefined : end), depth + 1, found);
    });
  }
}

/** Record the command `words` runs and, through wrappers, the commands they run (iteratively, bounded). */
function lookThrough(words: string[], depth: number, found: Found): void {
  const pending = [0];
  const visited = new Set<number>();
  while (pending.length && found.size < MAX_COMMANDS) {
    let start = pending.shift()!;
    if (visited.has(start)) continue;
    visited.add(start);
    while (start < words.length && (isAssignment(words[start]) || RESERVED.has(words[start]))) start++;
    if (start >= words.length) continue;
    const rest = words.slice(start);
    const key = JSON.stringify(rest);
    if (found.has(key)) continue;
    found.set(key, rest);
    lookInside(rest, depth, found);
    if (!WRAPPERS.has(basename(rest[0]))) continue;
    let taken = 0;
    for (let i = start + 1; i < words.length && taken < MAX_WRAPPED; i++) {
      if (words[i].startsWith("-") || isAssignment(words[i])) continue;
      pending.push(i);
      taken++;
    }
  }
}

function collect(command: string, depth: number, found: Found): void {
  if (depth > MAX_DEPTH || found.size >= MAX_COMMANDS) return;
  const nested: string[] = [];
  let tokens: Token[];
  try {
    tokens = parse(prepare(command, nested), (name) => `$${name}`);
  } catch {
    tokens = command.split(/\s+/);
  }
  for (const words of segments(tokens)) lookThrough(words, depth, found);
  for (const inner of nested) collect(inner, depth + 1, found);
}

/**
 * Every simple command `command` may run, as words with the quoting removed: each command of a list or
 * pipeline, commands inside substitutions, and what wrappers such as `sudo`, `env`, `bash -c` or `find -exec`
 * run. Leading `NAME=value` assignments are dropped; the program keeps its path (`/bin/rm`).
 */
export function shellCommands(command: string): string[][] {
  const found: Found = new Map();
  collect(command, 0, found);
  return [...found.values()];
}
