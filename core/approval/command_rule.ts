import { globToRegExp } from "../workspace/mod.ts";

/**
 * A command pattern of a rule such as `bash(rm -rf*)`, read as a command rather than as text: the program by
 * name (any path), its options as a set (`-rf` = `-fr` = `-r -f`, known long spellings mapped to short ones),
 * its other words in order. A pattern that ends in `*` allows more options and words.
 */
export interface CommandPattern {
  /** Matches the program's name without its directory. */
  program: RegExp;
  /** Short options (one letter each, after mapping long spellings). */
  shorts: Set<string>;
  /** Long options without a short spelling, by name (`--no-verify` is `no-verify`). */
  longs: Set<string>;
  /** The other words, in order. */
  words: RegExp[];
  /** Whether more options and words may follow (the pattern ended in `*`). */
  open: boolean;
}

/** Long options (and short synonyms) with a short spelling, per program. */
const SPELLINGS: Record<string, Record<string, string>> = {
  rm: { recursive: "r", R: "r", force: "f", dir: "d", verbose: "v", interactive: "i" },
  cp: { recursive: "r", R: "r", force: "f" },
  mv: { force: "f" },
  ln: { force: "f", symbolic: "s" },
  chmod: { recursive: "R" },
  chown: { recursive: "R" },
  chgrp: { recursive: "R" },
  git: { force: "f" },
  shred: { remove: "u", zero: "z", force: "f" },
};

const basename = (word: string) => word.slice(word.lastIndexOf("/") + 1);
const wordGlob = (glob: string) => new RegExp(globToRegExp(glob).source.replace(/\[\^\/\]\*/g, ".*"));

interface Shape {
  program: string;
  shorts: Set<string>;
  longs: Set<string>;
  words: string[];
}

function shape(words: string[]): Shape {
  const program = basename(words[0] ?? "");
  const spell = SPELLINGS[program] ?? {};
  const out: Shape = { program, shorts: new Set(), longs: new Set(), words: [] };
  let optionsEnded = false;
  for (const w of words.slice(1)) {
    if (optionsEnded || w === "-" || !w.startsWith("-")) out.words.push(w);
    else if (w === "--") optionsEnded = true;
    else if (w.startsWith("--")) {
      const name = w.slice(2).split("=")[0];
      if (spell[name]) out.shorts.add(spell[name]);
      else out.longs.add(name);
    } else for (const c of w.slice(1)) out.shorts.add(spell[c] ?? c);
  }
  return out;
}

/** Read the command part of a rule (`rm -rf*`, `git push --force*`); undefined when it names no program. */
export function parseCommandPattern(text: string): CommandPattern | undefined {
  const trimmed = text.trim();
  const open = trimmed.endsWith("*");
  const words = trimmed.split(/\s+/).map((w) => w.replace(/^(["'])(.*)\1$/, "$2")).filter(Boolean);
  if (open) {
    const last = words.at(-1)!;
    if (last === "*") words.pop();
    else if (last.startsWith("-")) words[words.length - 1] = last.replace(/\*+$/, "");
  }
  if (!words.length || words[0].startsWith("-")) return undefined;
  const s = shape(words);
  return {
    program: wordGlob(s.program),
    shorts: s.shorts,
    longs: s.longs,
    words: s.words.map(wordGlob),
    open,
  };
}

/** Whether the simple command `words` (quoting removed, as from `shellCommands`) matches `pattern`. */
export function matchesCommand(pattern: CommandPattern, words: string[]): boolean {
  const c = shape(words);
  if (!pattern.program.test(c.program)) return false;
  if ([...pattern.shorts].some((s) => !c.shorts.has(s))) return false;
  if ([...pattern.longs].some((l) => !c.longs.has(l))) return false;
  if (!pattern.open) {
    return c.shorts.size === pattern.shorts.size && c.longs.size === pattern.longs.size &&
      c.words.length === pattern.words.length && pattern.words.every((re, i) => re.test(c.words[i]));
  }
  let at = 0;
  for (const word of c.words) if (at < pattern.words.length && pattern.words[at].test(word)) at++;
  return at === pattern.words.length;
}
