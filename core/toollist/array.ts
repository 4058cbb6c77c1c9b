import type { DeferredState } from "../session/mod.ts";
import type { DeferMode, ToolSettings } from "../config/mod.ts";
import type { OpenAITool, ToolSource } from "../tool/mod.ts";
import { evolve } from "./pool.ts";

/** OpenAI rejects more tools than this in one request. */
export const MAX_TOOLS = 128;

/** The `tools` settings with defaults applied. */
export interface DeferralSettings {
  /** auto, never or always (see `ToolSettings.defer`). */
  defer: DeferMode;
  /** `auto` folds while the conversation after the tools is at most this many tokens. */
  deferAboveTokens: number;
  /** After this long without a request the provider's cache counts as cold. */
  cacheTtlMs: number;
  /** Tools beyond this many (or 128) are reached through `find_tools`. */
  searchAbove: number;
}

/** Defaults for the `tools` section of config.json. */
export function deferralSettings(tools: ToolSettings = {}): DeferralSettings {
  return {
    defer: tools.defer ?? "auto",
    deferAboveTokens: tools.defer_above_tokens ?? 4000,
    cacheTtlMs: (tools.cache_ttl_s ?? 300) * 1000,
    searchAbove: tools.search_above ?? 64,
  };
}

/** How many tools the array may hold: `searchAbove`, and never more than 128. */
export function toolLimit(settings: DeferralSettings): number {
  return Math.min(settings.searchAbove, MAX_TOOLS);
}

/** `live` with `meta` (call_tool, find_tools) right after the built-ins. */
function withMeta(live: readonly OpenAITool[], opts: ArrayOptions): OpenAITool[] {
  let at = 0;
  while (at < live.length && opts.kindOf(live[at].function.name) === "builtin") at++;
  return [...live.slice(0, at), ...opts.meta, ...live.slice(at)];
}

/** What building the array needs: settings, the meta tools and where each tool comes from. */
export interface ArrayOptions {
  /** The `tools` settings. */
  settings: DeferralSettings;
  /** call_tool and find_tools, as sent. */
  meta: OpenAITool[];
  /** Where a tool comes from (the meta tools come from nowhere). */
  kindOf(name: string): ToolSource["kind"] | undefined;
}

/**
 * The tools array for `live`, evolved from `previous` (positions kept, new tools appended, as `evolve` does),
 * with call_tool and find_tools unless `defer` is never and everything fits; past the limit, MCP tools (then
 * plugin tools) are dropped from the end: they are reached through find_tools.
 */
export function buildToolArray(
  previous: readonly OpenAITool[],
  live: readonly OpenAITool[],
  opts: ArrayOptions,
): readonly OpenAITool[] {
  const limit = toolLimit(opts.settings);
  const hasMeta = previous.some((t) => opts.meta.some((m) => m.function.name === t.function.name));
  const meta = opts.settings.defer !== "never" || hasMeta || live.length > limit;
  const list = evolve(previous, meta ? withMeta(live, opts) : live).list;
  if (list.length <= limit) return list;
  const kept = [...list];
  for (const kind of ["mcp", "plugin"] as const) {
    for (let i = kept.length - 1; i >= 0 && kept.length > limit; i--) {
      if (opts.kindOf(kept[i].function.name) === kind) kept.splice(i, 1);
    }
  }
  return kept;
}

/** What to send with one request. */
export interface ToolStep {
  /** The tools array; the same array object as the previous request's when it did not change. */
  tools: readonly OpenAITool[];
  /** The array differs from the previous request's (record it). */
  changed: boolean;
  /** Text for a `<system-reminder>` message to append before the request, or "". */
  reminder: string;
  /** A short line for the user, or "". */
  notice: string;
  /** The deferred state changed (record `state()`). */
  stateChanged: boolean;
}

/** How one conversation's deferral starts: settings, and for a resume the array, state and last request. */
export interface DeferralOptions {
  /** The `tools` settings with defaults applied. */
  settings: DeferralSettings;
  /** The array a resumed session sent last. */
  sent?: readonly OpenAITool[];
  /** Deferred changes a resumed session had announced. */
  state?: DeferredState;
  /** When (ms since the epoch) the resumed session's last request went out. */
  lastRequestAt?: number;
  /** The clock (ms since the epoch). */
  now?: () => number;
}
