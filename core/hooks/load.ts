// Reading hooks from settings files: Claude Code's `"hooks"` shape, checked entry by entry; every problem is one
// line naming `file:line`, and a file with problems still loads its good entries.
import { jsonErrorAt } from "./json_error.ts";
import { compileMatcher, type Expressions, expressionsFor } from "./matcher.ts";
import { type CommandHook, HOOK_EVENTS, type HookEvent, type HookSource, type SkippedHook } from "./types.ts";

/** One settings file that may hold hooks, with its text. */
export interface HookFile {
  /** The file (absolute). */
  path: string;
  /** Its text. */
  text: string;
  /** Its level and vocabulary. */
  source: HookSource;
  /** `hooks.json` of a plugin bundle: the whole file is the `hooks` object (or `{ "hooks": ... }`). */
  bare?: boolean;
}

/** What the files held. */
export interface LoadedHooks {
  /** The hooks navi runs. */
  hooks: CommandHook[];
  /** Hooks navi does not run (unknown events, other hook types). */
  skipped: SkippedHook[];
  /** One line per problem, naming `file:line`. */
  problems: string[];
}

const DEFAULT_TIMEOUT_S = 60;

/** The 1-based line of character `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  return offset < 0 ? 0 : text.slice(0, offset).split("\n").length;
}

/** Finds the lines of keys in the order they appear (JSON.parse keeps that order for non-numeric keys). */
class Lines {
  #text: string;
  #from = new Map<string, number>();
  constructor(text: string) {
    this.#text = text;
  }
  /** The line of the next `"key":` at or after the last one found for this key. */
  next(key: string, after = 0): number {
    const re = new RegExp(`(?<!\\\\)"${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:`, "g");
    re.lastIndex = Math.max(this.#from.get(key) ?? 0, after);
    const m = re.exec(this.#text);
    if (!m) return 0;
    this.#from.set(key, re.lastIndex);
    return lineAt(this.#text, m.index);
  }
  /** The offset just after the last match of `key`. */
  offset(key: string): number {
    return this.#from.get(key) ?? 0;
  }
}

function jsonProblem(file: HookFile): string {
  const at = jsonErrorAt(file.text);
  const line = at ? lineAt(file.text, at.offset) : 1;
  const what = at ? `expected ${at.expected}` : "unreadable";
  return `${file.path}:${line}: not valid JSON (${what}); its hooks are not loaded`;
}

/** Read the hooks of `files`, in order. */
export async function loadHookFiles(files: readonly HookFile[]): Promise<LoadedHooks> {
  const re2 = await expressionsFor(matchersIn(files));
  const out: LoadedHooks = { hooks: [], skipped: [], problems: [] };
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(file.text);
    } catch {
      out.problems.push(jsonProblem(file));
      continue;
    }
    const plain = (v: unknown): v is Record<string, unknown> =>
      v !== null && typeof v === "object" && !Array.isArray(v);
    if (!plain(raw)) {
      out.problems.push(`${file.path}:1: expected a JSON object; its hooks are not loaded`);
      continue;
    }
    const section = file.bare && !("hooks" in raw) ? raw : raw.hooks;
    if (section === undefined) continue;
    const lines = new Lines(file.text);
    const start = file.bare && !("hooks" in raw) ? 0 : (lines.next("hooks"), lines.offset("hooks"));
    if (!plain(section)) {
      out.problems.push(`${file.path}:${lineAt(file.text, start)}: "hooks" must be an object of events`);
      continue;
    }
    for (const [event, groups] of Object.entries(section)) {
      readEvent(file, { event, groups, lines: lines, after: start, out, re2 });
    }
  }
  return out;
}

/** Every `matcher` value in `files` (those that parse), to know before reading them whether re2js is needed. */
function* matchersIn(files: readonly HookFile[]): Generator<unknown> {
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(file.text);
    } catch {
      continue;
    }
    const obj = (raw ?? {}) as Record<string, unknown>;
    const section = (file.bare && !("hooks" in obj) ? obj : obj.hooks) as Record<string, unknown> | undefined;
    for (const groups of Object.values(section && typeof section === "object" ? section : {})) {
      for (const g of Array.isArray(groups) ? groups : []) {
        yield (g as Record<string, unknown> | null)?.matcher;
      }
    }
  }
}

function readEvent(
  file: HookFile,
  at: { event: string; groups: unknown; lines: Lines; after: number; out: LoadedHooks; re2?: Expressions },
): void {
  const { event, groups, lines, out } = at;
  const eventLine = lines.next(event, at.after);
  const where = (line: number) => `${file.path}:${line || eventLine}`;
  if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
    out.skipped.push({ event, why: "navi has no such event", file: file.path, line: eventLine });
    return;
  }
  if (!Array.isArray(groups)) {
    out.problems.push(`${where(eventLine)}: hooks.${event} must be a list of { "matcher", "hooks" } entries`);
    return;
  }
  for (const [i, group] of groups.entries()) {
    const g = group as Record<string, unknown> | null;
    const hasMatcher = g !== null && typeof g === "object" && "matcher" in g;
    const line = hasMatcher ? lines.next("matcher", at.after) : eventLine;
    const name = `hooks.${event}[${i}]`;
    if (!g || typeof g !== "object" || Array.isArray(g) || !Array.isArray(g.hooks)) {
      out.problems.push(`${where(line)}: ${name} must be an object with a "hooks" list`);
      continue;
    }
    if (hasMatcher && typeof g.matcher !== "string") {
      out.problems.push(`${where(line)}: ${name}.matcher must be a string`);
      continue;
    }
    const matcher = compileMatcher(g.matcher as string | undefined, at.re2);
    if ("error" in matcher) {
      out.problems.push(`${where(line)}: ${name}: ${matcher.error}; its hooks are not loaded`);
      continue;
    }
    for (const [j, h] of (g.hooks as unknown[]).entries()) {
      const hook = readHook(file, { event: event as HookEvent, h, name: `${name}.hooks[${j}]`, line });
      if (typeof hook === "string") {
        if (hook.startsWith("skip:")) {
          out.skipped.push({ event, why: hook.slice(5), file: file.path, line });
        } else out.problems.push(`${where(line)}: ${hook}`);
        continue;
      }
      out.hooks.push({ ...hook, matcher: (g.matcher as string | undefined) ?? "", matches: matcher.test });
    }
  }
}

function readHook(
  file: HookFile,
  at: { event: HookEvent; h: unknown; name: string; line: number },
): Omit<CommandHook, "matcher" | "matches"> | string {
  const h = at.h as Record<string, unknown> | null;
  if (!h || typeof h !== "object" || Array.isArray(h)) return `${at.name} must be an object`;
  if (h.type !== "command") {
    return `skip:hook type ${JSON.stringify(h.type)} is not supported (navi runs "command")`;
  }
  if (typeof h.command !== "string" || !h.command.trim()) {
    return `${at.name}.command must be a non-empty string`;
  }
  const timeout = h.timeout ?? DEFAULT_TIMEOUT_S;
  if (typeof timeout !== "number" || !(timeout > 0)) {
    return `${at.name}.timeout must be a positive number of seconds`;
  }
  for (const key of ["sandbox", "network"] as const) {
    if (h[key] !== undefined && typeof h[key] !== "boolean") return `${at.name}.${key} must be true or false`;
  }
  const project = file.source.level === "project";
  const root = file.source.pluginRoot;
  return {
    event: at.event,
    command: root ? h.command.replaceAll("${CLAUDE_PLUGIN_ROOT}", root) : h.command,
    timeoutMs: Math.round(timeout * 1000),
    source: file.source,
    line: at.line,
    confined: project || h.sandbox === true,
    network: h.network === true,
  };
}
