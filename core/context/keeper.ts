// Keeps a conversation within the model's context window: estimates, compaction, instruction reloads.
import type { CacheStats } from "../toollist/mod.ts";
import {
  COMPACT_PROMPT,
  compactedView,
  fitForSummary,
  headLength,
  SUMMARY_MAX_TOKENS,
} from "./compaction.ts";
import { FALLBACK_LIMITS, type ModelLimits, promptBudget } from "./window.ts";
import { isInstructionsMessage } from "./instructions.ts";
import type { OpenAITool, ToolSource } from "../tool/mod.ts";
import type { Message } from "../provider/mod.ts";
import type { Session } from "../session/mod.ts";
import { type ContextPart, TokenEstimator } from "./tokens.ts";
import { ContextLimitError, leftOutNote, tooLargeLine, withFittedArguments } from "./limits.ts";

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
  /** The model's window; without it nothing is compacted automatically. */
  limits?: () => ModelLimits;
  /** Where each tool comes from (for /context). */
  sourceOf(tool: string): ToolSource | undefined;
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
    if (size <= budget && size + margin <= this.#summaryRoom()) return false;
    if (this.compactable() && this.#compactionHelps(tools)) return true;
    if (size > budget) {
      throw new ContextLimitError(
        `the conversation (about ${size} tokens) cannot fit the model's window even when compacted ` +
          `(a budget of ${budget} tokens); nothing was sent. Start a new conversation (/clear) or ` +
          "use a model with a larger window",
      );
    }
    return false;
  }

  /** Whether a compacted conversation (head, a summary of the most it may be, the request) fits the budget. */
  #compactionHelps(tools: readonly OpenAITool[]): boolean {
    const after = this.tokens.estimate([...tools, ...compactedView(this.#opts.session.messages, "")]);
    return after + SUMMARY_MAX_TOKENS <= this.budget();
  }

  /** Tokens the window leaves for the conversation after the system prompt, the instructions and `tools`. */
  room(tools: readonly OpenAITool[]): number {
    const { messages } = this.#opts.session;
    return this.budget() - this.tokens.estimate([...tools, ...messages.slice(0, headLength(messages))]);
  }

  /**
   * Before a user message is added: throw a ContextLimitError (one line: its size, the window, what to do) when
   * it alone cannot fit next to the system prompt, the instructions and `tools`. Nothing is sent then.
   */
  checkMessage(content: string | Record<string, unknown>[], tools: readonly OpenAITool[]): void {
    const tokens = this.tokens.estimate([{ role: "user", content }]);
    const text = typeof content === "string" ? content : JSON.stringify(content);
    const room = this.room(tools);
    if (tokens <= room) return;
    const window = this.#opts.limits?.().contextWindow ?? room;
    throw new ContextLimitError(tooLargeLine(text, { tokens, window, room }));
  }

  /**
   * A tool result (or arguments) for the conversation: unchanged when it fits, else (over half the room the
   * window leaves for the conversation) a note with its size and the path where the session keeps it whole.
   */
  fitText(text: string, opts: { tools: readonly OpenAITool[]; name: string; what: string }): string {
    const tokens = this.tokens.estimate([{ role: "tool", content: text }]);
    if (tokens * 2 <= this.room(opts.tools)) return text;
    let path: string | undefined;
    try {
      path = this.#opts.session.saveOutput(opts.name, text);
    } catch { /* the note still says how large it was */ }
    return leftOutNote(opts.what, { chars: text.length, tokens, path });
  }

  /** An assistant message whose tool-call arguments that cannot fit are replaced by notes (see `fitText`). */
  fitToolCalls(message: Message, tools: readonly OpenAITool[]): Message {
    return withFittedArguments(message, (args, id) => {
      const fitted = this.fitText(args, {
        tools,
        name: `${id}-arguments`,
        what: "the arguments of this call",
      });
      return fitted === args ? undefined : fitted;
    });
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
   * The summary request for a compaction with `tools` (those of the last request, so that it extends that
   * request and the provider's cache serves it): the conversation cut to fit the window, plus the instruction.
   * `before` is the estimate of the prompt as it stands.
   */
  summaryRequest(tools: readonly OpenAITool[]): { messages: Message[]; before: number } {
    const { session } = this.#opts;
    const before = this.tokens.estimate([...tools, ...session.messages]);
    const request = fitForSummary([...session.messages, COMPACT_REQUEST], {
      budget: this.#summaryRoom() - this.tokens.estimate(tools),
      estimator: this.tokens,
    });
    return { messages: request.messages, before };
  }

  /**
   * Replace the conversation by `summary`, in the same session: then it is the system prompt, the project
   * instructions, the summary and the user's last request. The old messages stay in the session file.
   */
  applySummary(
    tools: readonly OpenAITool[],
    opts: { summary: string; before: number; reason: CompactionInfo["reason"] },
  ): CompactionInfo {
    const { session } = this.#opts;
    const messages = compactedView(session.messages, opts.summary);
    const after = this.tokens.estimate([...tools, ...messages]);
    session.rewrite({
      reason: "compaction",
      messages,
      summary: opts.summary,
      tokens: { before: opts.before, after },
    });
    this.#lastSize = undefined;
    this.#opts.coldPoint?.();
    return { reason: opts.reason, before: opts.before, after, summary: opts.summary };
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
}
