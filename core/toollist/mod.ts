/**
 * The tools array a conversation sends, kept byte-identical so the provider's prompt cache holds: the live
 * pool, deferral of changes with reminders, `call_tool` and `find_tools`, and the cache telemetry. `ToolList`
 * alone holds the array last sent.
 * @module
 */
export {
  type DeferralOptions,
  type DeferralSettings,
  deferralSettings,
  MAX_TOOLS,
  type ToolStep,
} from "./array.ts";
export {
  type CacheBreak,
  CacheStats,
  type CacheSummary,
  type RequestParts,
  toolChangeLabel,
} from "./cache_stats.ts";
export { ToolDeferral } from "./deferral.ts";
export {
  assemble,
  type Evolution,
  evolve,
  featureDisabled,
  fnv1a,
  type PoolFilter,
  ToolPool,
} from "./pool.ts";
export { type ToolChanges, toolsReminder } from "./reminder.ts";
export type { RoutedCall } from "./route.ts";
export { CALL_TOOL, FIND_TOOLS, type ToolMatch, ToolSearch, words } from "./search.ts";
export { type ResumedToolList, ToolList, type ToolListOptions } from "./tool_list.ts";
