// Keeps a conversation within the model's context window: estimates, compaction, instruction reloads.
import type { CacheStats } from "../toollist/cache_stats.ts";
import {
  COMPACT_PROMPT,
  compactedView,
  fitForSummary,
  headLength,
  SUMMARY_MAX_TOKENS,
} from "./compaction.ts";
import { FALLBACK_LIMITS, type ModelLimits, promptBudget } from "./window.ts";
import { isInstructionsMessage } from "./instructions.ts";
import { type ChatFn, isAbort } from "../provider/llm.ts";
import type { OpenAITool } from "../tool/registry.ts";
import type { Message, Session } from "../session/session.ts";
import { emptyUsage, ResponseAssembler, type Usage } from "../agent/stream.ts";
import { type ContextPart, TokenEstimator } from "./tokens.ts";
import type { ToolSource } from "../tool/types.ts";

const COMPACT_REQUEST: Message = { role: "user", content: COMPACT_PROMPT };

/** What a compaction did (or, without `summary`, is about to do). */
export interface CompactionInfo {
  /** `auto`: the next request would not fit; `context-length`: the provider refused one; `manual`: /compact. */
  reason: "auto" | "context-length" | "manual";
  /** Estimated prompt tokens before. */
  before: number;
  /** Estimated prompt tokens after. */
  after?: number;
  /** The summary that now stands for the earlier conversation. */
  summary?: string;
}

/** What `/context` shows. */
export interface ContextView {
  /** The model's limits. */
  limits: ModelLimits;
  /** Prompt tokens a request may have (the window minus the output reserve). */
  budget: number;
  /** The next request's parts. */
  parts: ContextPart[];
  /** Their sum. */
  total: number;
  /** The calibration ratio (provider's count / bytes / 4). */
  ratio: number;
}

/** What a ContextKeeper works with. */
export interface ContextKeeperOptions {
  /** The session whose conversation is kept (and rewritten by a compaction). */
  session: Session;
  /** The session's request bytes and cache figures (summary requests are recorded there too). */
  cache: CacheStats;
  /** Sends the summary request. */
  chat: ChatFn;
  /** The model's window; without it nothing is compacted automatically. */
  limits?: () => ModelLimits;
  /** Where each tool comes from (for /context). */
  sourceOf(tool: string): ToolSource | undefined;
  /** Told when a compaction starts and ends. */
  onCompaction?(info: CompactionInfo): void;
  /** The cache is cold after a rewrite: deferred tool changes may be folded. */
  coldPoint?(): void;
}

/** Keeps the conversation of one session within the model's context window. */
export class ContextKeeper {
  /** Token estimates of what is sent, calibrated with the provider's counts. */
  readonly tokens: TokenEstimator;
  #opts: ContextKeeperOptions;
  /** 90% of a prompt size the provider refused (context length); requests stay below it. */
  #refusedAt = Infinity;
  /** The size of the request last checked, and the largest growth from one request to the next. */
  #lastSize?: number;
  #growth = 0;

  /** Keep `opts.session` within `opts.limits()`. */
  constructor(opts: ContextKeeperOptions) {
    this.#opts = opts;
    this.tokens = new TokenEstimator((v) => opts.cache.part(v).bytes);
  }

  /** Prompt tokens the next request may have: the model's budget, and below a size the provider refused. */
  budget(): number {
    const limits = this.#opts.limits?.();
    return Math.min(limits ? promptBudget(limits) : Infinity, this.#refusedAt);
  }

  /**
   * Whether to compact before a request with `tools` and the conversation: when it would not fit, or when the
   * next step would grow it past what a summary request can carry unchanged (the conversation plus the
   * instruction, within the window minus room for the summary). Compacting that early keeps the summary request
   * an extension of the request before it, so a compaction costs one cache break, the request after it. The
   * growth expected is the largest step seen so far, at most a quarter of the budget.
   */
  overBudget(tools: readonly OpenAITool[]): boolean {
    const size = this.tokens.estimate([...tools, ...this.#opts.session.messages]);
    if (this.#lastSize !== undefined && size > this.#lastSize) {
      this.#growth = Math.max(this.#growth, size - this.#lastSize);
    }
    this.#lastSize = size;
    const budget = this.budget();
    const margin = Math.min(this.#growth, budget / 4) + this.tokens.estimate([COMPACT_REQUEST]);
    return (size > budget || size + margin > this.#summaryRoom()) && this.compactable();
  }

  /** Whether a summary would be smaller than the conversation after the system prompt and instructions. */
  compactable(): boolean {
    const { messages } = this.#opts.session;
    return this.tokens.estimate(messages.slice(headLength(messages))) > SUMMARY_MAX_TOKENS;
  }

  /** The prompt a summary request may have: the window minus room for the summary, below a refused size. */
  #summaryRoom(): number {
    const limits = this.#opts.limits?.();
    const answer = limits ? Math.min(limits.contextWindow - promptBudget(limits), SUMMARY_MAX_TOKENS) : 0;
    return Math.min(limits ? limits.contextWindow - answer : Infinity, this.#refusedAt);
  }

  /** The provider refused a request with `tools` and the conversation as too long: stay 10% below that. */
  refused(tools: readonly OpenAITool[]): void {
    const size = this.tokens.estimate([...tools, ...this.#opts.session.messages]);
    this.#refusedAt = Math.min(this.#refusedAt, Math.floor(size * 0.9));
  }

  /** The parts a request with `tools` would carry, against the window. */
  view(tools: readonly OpenAITool[]): ContextView {
    const limits = this.#opts.limits?.() ?? FALLBACK_LIMITS;
    const parts = this.tokens.parts({ tools, messages: this.#opts.session.messages }, this.#opts.sourceOf);
    const total = parts.reduce((n, p) => n + p.tokens, 0);
    return { limits, budget: this.budget(), parts, total, ratio: this.tokens.ratio };
  }

  /**
   * Replace the conversation by a summary of it, in the same session: one summary request with `tools` (those
   * of the last request, so that it extends that request and the provider's cache serves it; tool calls are
   * not allowed), then the conversation is the system prompt, the project instructions, the summary and the
   * user's last request. The old messages stay in the session file. Returns undefined when aborted or when
   * the model gave no summary (the conversation is unchanged).
   */
  async compact(
    tools: readonly OpenAITool[],
    opts: { reason: CompactionInfo["reason"]; signal: AbortSignal; usage?: Usage },
  ): Promise<CompactionInfo | undefined> {
    const { session } = this.#opts;
    const before = this.tokens.estimate([...tools, ...session.messages]);
    this.#opts.onCompaction?.({ reason: opts.reason, before });
    const room = this.#summaryRoom();
    const request = fitForSummary([...session.messages, COMPACT_REQUEST], {
      budget: room - this.tokens.estimate(tools),
      estimator: this.tokens,
    });
    const summary = await this.#summarize(tools, { ...opts, messages: request.messages });
    if (!summary) return undefined;
    const messages = compactedView(session.messages, summary);
    const after = this.tokens.estimate([...tools, ...messages]);
    session.rewrite({ reason: "compaction", messages, summary, tokens: { before, after } });
    this.#lastSize = undefined;
    this.#opts.coldPoint?.();
    const info = { reason: opts.reason, before, after, summary };
    this.#opts.onCompaction?.(info);
    return info;
  }

  /** Put `text` in place of the project instructions (a rewrite: the next request breaks the cache once). */
  replaceInstructions(text: string): boolean {
    const { session } = this.#opts;
    const messages = [...session.messages];
    const at = messages.findIndex((m, i) => i <= 1 && isInstructionsMessage(m));
    if (at >= 0 && text) messages[at] = { role: "user", content: text };
    else if (at >= 0) messages.splice(at, 1);
    else if (text) {
      messages.splice(messages[0]?.role === "system" ? 1 : 0, 0, { role: "user", content: text });
    } else return false;
    session.rewrite({ reason: "instructions", messages });
    this.#opts.coldPoint?.();
    return true;
  }

  async #summarize(
    tools: readonly OpenAITool[],
    opts: { messages: Message[]; signal: AbortSignal; usage?: Usage },
  ): Promise<string> {
    const { session, cache } = this.#opts;
    const at = new Date().toISOString();
    const changed = cache.observe({ tools, messages: opts.messages });
    const usage = emptyUsage();
    const response = new ResponseAssembler(usage);
    try {
      const req = { messages: opts.messages, tools, cacheKey: session.meta.id, toolChoice: "none" as const };
      for await (const chunk of this.#opts.chat(req, opts.signal)) response.add(chunk);
      if (opts.signal.aborted) return "";
    } catch (err) {
      if (isAbort(err, opts.signal)) return "";
      throw err;
    } finally {
      if (opts.usage) { for (const k of Object.keys(usage) as (keyof Usage)[]) opts.usage[k] += usage[k]; }
      session.recordRequest(cache.record({
        at,
        messages: opts.messages.length,
        prompt_tokens: usage.prompt_tokens,
        cached_tokens: usage.cached_tokens,
        summary: true,
        ...(changed ? { break: changed } : {}),
      }));
    }
    return response.text.trim();
  }
}
