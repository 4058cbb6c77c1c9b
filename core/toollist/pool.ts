import type { OpenAITool, Tool, ToolRegistry } from "../tool/mod.ts";
import { globToRegExp } from "../workspace/mod.ts";

/** What the model may be offered: approval mode and feature gates. */
export interface PoolFilter {
  /** Offer read_only tools only (plan mode). */
  readOnly: boolean;
  /** Feature gates: `{ "<name or glob>": false }` switches tools off. */
  features: Record<string, boolean>;
}

/** Whether feature gates (`{ "<name or glob>": false }`) switch a tool off; an exact name beats a glob. */
export function featureDisabled(name: string, features: Record<string, boolean>): boolean {
  if (name in features) return features[name] === false;
  let disabled = false;
  for (const [pattern, on] of Object.entries(features)) {
    if (pattern.includes("*") || pattern.includes("?")) {
      if (globToRegExp(pattern).test(name)) disabled = !on;
    }
  }
  return disabled;
}

const KIND_ORDER = { builtin: 0, plugin: 1, mcp: 2 } as const;

/** Built-ins in their order, then plugin tools in file order, then MCP tools by server and tool name; filtered. */
export function assemble(registry: ToolRegistry, filter: PoolFilter): Tool[] {
  const entries = registry.list({ readOnly: filter.readOnly })
    .filter((t) => !featureDisabled(t.name, filter.features))
    .map((tool, index) => ({ tool, index, source: registry.sourceOf(tool.name)! }));
  entries.sort((a, b) => {
    const k = KIND_ORDER[a.source.kind] - KIND_ORDER[b.source.kind];
    if (k !== 0) return k;
    if (a.source.kind === "mcp") {
      if (a.source.origin !== b.source.origin) return a.source.origin < b.source.origin ? -1 : 1;
      return a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0;
    }
    return a.index - b.index;
  });
  return entries.map((e) => e.tool);
}

function sameDefinition(a: OpenAITool, b: OpenAITool): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The outcome of `evolve`: the list to send and what changed (names) against the previous one. */
export interface Evolution {
  /** The list to send; `previous` itself when nothing changed. */
  list: readonly OpenAITool[];
  /** Tools new to the list (appended). */
  added: string[];
  /** Tools that dropped out. */
  removed: string[];
  /** Tools still there whose definition changed (kept in place). */
  changed: string[];
}

function same(a: readonly OpenAITool[], b: readonly OpenAITool[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Evolve the model-facing list. Nothing changed: `previous` itself comes back. Otherwise tools still
 * available keep their positions (with current definitions), vanished ones drop out, new ones are appended.
 * A list whose entries only equal the live ones by value (read back from a session) comes back as the live
 * objects with nothing reported as changed, so the next comparison takes the reference fast path.
 */
export function evolve(previous: readonly OpenAITool[], available: readonly OpenAITool[]): Evolution {
  if (same(previous, available)) return { list: previous, added: [], removed: [], changed: [] };
  const byName = new Map(available.map((t) => [t.function.name, t]));
  const list: OpenAITool[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  let rebased = false;
  for (const old of previous) {
    const name = old.function.name;
    const current = byName.get(name);
    if (!current) {
      removed.push(name);
      continue;
    }
    if (old !== current) {
      if (sameDefinition(old, current)) rebased = true;
      else changed.push(name);
    }
    list.push(current);
    byName.delete(name);
  }
  const added = [...byName.keys()];
  list.push(...byName.values());
  if (!added.length && !removed.length && !changed.length && !rebased) {
    return { list: previous, added, removed, changed };
  }
  return { list, added, removed, changed };
}

/** What the pool offers: read-only tools only (plan mode) and feature gates. */
export interface PoolOptions {
  /** Asked at every sync: true in plan mode. The approval policy owns the mode; the pool only reads it. */
  readOnly: () => boolean;
  /** `{ "<name or glob>": false }` switches tools off. */
  features?: Record<string, boolean>;
  /** The list a resumed session sent last; evolved rather than rebuilt. */
  previous?: readonly OpenAITool[];
}

/**
 * Owns the model-facing tool list of one conversation. `sync()` is O(1) while the registry and the mode are
 * unchanged and returns the same array object.
 */
export class ToolPool {
  #registry: ToolRegistry;
  #readOnly: () => boolean;
  #features: Record<string, boolean>;
  #list: readonly OpenAITool[] = [];
  /** Every tool in offer order, plan mode or not: switching modes filters it and keeps each tool's place. */
  #full: readonly OpenAITool[] = [];
  #seen = -1;
  #seenReadOnly = false;
  #baseline: boolean;
  #json = new WeakMap<readonly OpenAITool[], string>();

  /** Offer the tools of `registry`, filtered as `opts` says. */
  constructor(registry: ToolRegistry, opts: PoolOptions) {
    this.#registry = registry;
    this.#readOnly = opts.readOnly;
    this.#features = opts.features ?? {};
    this.#baseline = opts.previous !== undefined;
    if (opts.previous) this.#list = this.#full = opts.previous;
  }

  /** The live list as of the last sync (or, before it, the list a resumed session sent). */
  get list(): readonly OpenAITool[] {
    return this.#list;
  }

  /**
   * Bring the list up to date for the next request and say what changed since the previous one. `initial`
   * marks the first list of a new conversation (there was nothing before it to change).
   */
  sync(): Evolution & { initial: boolean } {
    const initial = !this.#baseline;
    this.#baseline = true;
    const readOnly = this.#readOnly();
    const version = this.#registry.version;
    if (this.#seen === version && readOnly === this.#seenReadOnly) {
      return { list: this.#list, added: [], removed: [], changed: [], initial };
    }
    const { evolution, full } = this.#evolve(readOnly);
    this.#list = evolution.list;
    this.#full = full;
    this.#seen = version;
    this.#seenReadOnly = readOnly;
    return { ...evolution, initial };
  }

  /** What the next request would send, without committing to it (for `/tools` and `navi tools`). */
  peek(): readonly OpenAITool[] {
    const readOnly = this.#readOnly();
    if (this.#seen === this.#registry.version && readOnly === this.#seenReadOnly) return this.#list;
    return this.#evolve(readOnly).evolution.list;
  }

  #evolve(readOnly: boolean): { evolution: Evolution; full: readonly OpenAITool[] } {
    const features = this.#features;
    const everything = assemble(this.#registry, { readOnly: false, features });
    const full = evolve(this.#full, this.#registry.toOpenAITools(everything)).list;
    const offered = new Set(assemble(this.#registry, { readOnly, features }).map((t) => t.name));
    const target = full.filter((t) => offered.has(t.function.name));
    const evolution = evolve(this.#list, target);
    return { evolution: evolution.list === this.#list ? evolution : { ...evolution, list: target }, full };
  }

  /** The list's JSON, computed once per array object. */
  json(list: readonly OpenAITool[] = this.#list): string {
    let text = this.#json.get(list);
    if (text === undefined) {
      text = JSON.stringify(list);
      this.#json.set(list, text);
    }
    return text;
  }

  /** A short fingerprint of the list (FNV-1a of its JSON), to show that it did not change. */
  fingerprint(list: readonly OpenAITool[] = this.#list): string {
    return fnv1a(this.json(list));
  }
}

/** 32-bit FNV-1a hash as 8 hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
