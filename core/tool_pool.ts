import type { OpenAITool, ToolRegistry } from "./registry.ts";
import type { Tool } from "./tool.ts";
import { globToRegExp } from "./files.ts";

/** What the model may be offered: approval mode and feature gates. */
export interface PoolFilter {
  readOnly: boolean;
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

/**
 * Evolve the model-facing list. Nothing changed: returns `previous` itself. Otherwise tools still
 * available keep their positions (with current definitions), vanished ones drop out, new ones are appended.
 */
export function evolve(
  previous: readonly OpenAITool[],
  available: readonly OpenAITool[],
): readonly OpenAITool[] {
  if (previous === available) return previous;
  if (previous.length === available.length) {
    let same = true;
    for (let i = 0; i < previous.length; i++) {
      if (previous[i] !== available[i]) {
        same = false;
        break;
      }
    }
    if (same) return previous;
  }
  const byName = new Map(available.map((t) => [t.function.name, t]));
  const next: OpenAITool[] = [];
  let changed = previous.length !== available.length;
  for (const old of previous) {
    const current = byName.get(old.function.name);
    if (!current) {
      changed = true;
      continue;
    }
    if (!sameDefinition(old, current)) changed = true;
    next.push(current);
    byName.delete(old.function.name);
  }
  for (const t of byName.values()) {
    next.push(t);
    changed = true;
  }
  return changed ? next : previous;
}

/** Names added, removed and redefined between two lists. */
export function diffTools(previous: readonly OpenAITool[], next: readonly OpenAITool[]) {
  const before = new Map(previous.map((t) => [t.function.name, t]));
  const after = new Set(next.map((t) => t.function.name));
  return {
    added: [...after].filter((n) => !before.has(n)),
    removed: [...before.keys()].filter((n) => !after.has(n)),
    changed: next.filter((t) => {
      const old = before.get(t.function.name);
      return old !== undefined && !sameDefinition(old, t);
    }).map((t) => t.function.name),
  };
}

/**
 * Owns the model-facing tool list of one conversation. `current()` is O(1) while the registry and the
 * filter are unchanged and returns the same array object.
 */
export class ToolPool {
  #registry: ToolRegistry;
  #filter: PoolFilter;
  #list: readonly OpenAITool[] = [];
  #seen = -1;
  #json = new WeakMap<readonly OpenAITool[], string>();

  constructor(registry: ToolRegistry, opts: { filter: PoolFilter; previous?: readonly OpenAITool[] }) {
    this.#registry = registry;
    this.#filter = opts.filter;
    if (opts.previous) this.#list = opts.previous;
  }

  /** Change the filter (approval mode, features); applies at the next `current()`. */
  setFilter(filter: PoolFilter): void {
    this.#filter = filter;
    this.#seen = -1;
  }

  /** The list to send with the next request. */
  current(): readonly OpenAITool[] {
    if (this.#seen === this.#registry.version) return this.#list;
    this.#seen = this.#registry.version;
    const available = this.#registry.toOpenAITools(assemble(this.#registry, this.#filter));
    this.#list = evolve(this.#list, available);
    return this.#list;
  }

  /** The list's JSON, computed once per array object. */
  json(list: readonly OpenAITool[] = this.current()): string {
    let text = this.#json.get(list);
    if (text === undefined) {
      text = JSON.stringify(list);
      this.#json.set(list, text);
    }
    return text;
  }

  /** A short fingerprint of the list (FNV-1a of its JSON), to show that it did not change. */
  fingerprint(list: readonly OpenAITool[] = this.current()): string {
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
