// The tool list of one conversation: the live pool, the array each request sends, and the cache figures.
import type { Message } from "../provider/mod.ts";
import type { DeferredState, RequestRecord } from "../session/mod.ts";
import type { OpenAITool, ToolRegistry } from "../tool/mod.ts";
import type { DeferralSettings } from "./array.ts";
import { CacheStats, toolChangeLabel } from "./cache_stats.ts";
import { ToolDeferral } from "./deferral.ts";
import { ToolPool } from "./pool.ts";

/** What a resumed session brings back of its tool list. */
export interface ResumedToolList {
  /** The tools array it sent last. */
  tools?: readonly OpenAITool[];
  /** Deferred changes it had announced. */
  deferred?: DeferredState;
  /** Its request records, oldest first. */
  requests: RequestRecord[];
  /** The messages its last request sent (a prefix of the session's messages). */
  lastMessages?: readonly Message[];
}

/** How to build a conversation's tool list. */
export interface ToolListOptions {
  /** true in plan mode: asked at every request (the approval policy owns the mode). */
  readOnly: () => boolean;
  /** The approval mode's name, for labels of cache breaks. */
  mode: () => string;
  /** The `tools` settings with defaults applied. */
  settings: DeferralSettings;
  /** `features` of config.json: `{ "<name or glob>": false }` switches tools off. */
  features?: Record<string, boolean>;
  /** What a resumed session sent. */
  resumed?: ResumedToolList;
  /** The clock (ms since the epoch). */
  now?: () => number;
}

/**
 * One conversation's tool list. It alone holds the tools array last sent (in its deferral); the agent, the
 * compaction and the cache telemetry ask it.
 */
export class ToolList {
  /** The live list: built-ins, plugin and MCP tools as the approval mode and features allow. */
  readonly pool: ToolPool;
  /** Decides each request's tools array (folds or defers changes) and routes calls. */
  readonly deferral: ToolDeferral;
  /** The session's prompt-cache figures, from navi's own request bytes. */
  readonly cache: CacheStats;

  /** The tool list of `registry`'s tools, as `opts` says. */
  constructor(registry: ToolRegistry, opts: ToolListOptions) {
    const { resumed } = opts;
    this.pool = new ToolPool(registry, { readOnly: opts.readOnly, features: opts.features });
    this.cache = new CacheStats({
      history: resumed?.requests,
      previous: resumed?.tools && resumed.lastMessages
        ? { tools: resumed.tools, messages: resumed.lastMessages }
        : undefined,
      label: toolChangeLabel(registry, opts.mode),
    });
    this.deferral = new ToolDeferral(this.pool, registry, {
      settings: opts.settings,
      sent: resumed?.tools,
      state: resumed?.deferred,
      lastRequestAt: this.cache.lastRequestAt(),
      now: opts.now,
    });
  }

  /** The tools array the last request sent (empty before the first). */
  sent(): readonly OpenAITool[] {
    return this.deferral.sent() ?? [];
  }
}
