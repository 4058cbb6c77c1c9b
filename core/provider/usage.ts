import type { ModelPriceSettings } from "../config/mod.ts";

/** Token counts of one response, or of a turn (summed over its requests). */
export interface Usage {
  /** Tokens sent to the model (the prompt). */
  prompt_tokens: number;
  /** Tokens the model generated, its reasoning included (whether or not the provider counts it there). */
  completion_tokens: number;
  /** Prompt plus completion tokens. */
  total_tokens: number;
  /** Prompt tokens the provider served from its prompt cache, when it reports them. */
  cached_tokens: number;
  /** Of the completion tokens, those the model spent reasoning, when the provider reports them. */
  reasoning_tokens: number;
  /** Prompt tokens written to the provider's cache (Anthropic's cache_creation), when it reports them. */
  cache_write_tokens: number;
}

/** A new, zeroed Usage. */
export function emptyUsage(): Usage {
  return {
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cached_tokens: 0,
    reasoning_tokens: 0,
    cache_write_tokens: 0,
  };
}

/** Prices of one model in US dollars per million tokens (config.json `prices.<model>`). */
export type ModelPrice = ModelPriceSettings;

/** Add `u` to `into` (in place; a field `u` lacks counts 0); returns `into`. */
export function addUsage(into: Usage, u: Partial<Usage>): Usage {
  for (const key of Object.keys(into) as (keyof Usage)[]) into[key] += u[key] ?? 0;
  return into;
}

/** The sum of usage over models. */
export function totalUsage(byModel: Record<string, Usage>): Usage {
  return Object.values(byModel).reduce((sum, u) => addUsage(sum, u), emptyUsage());
}

/** What `usage` of one model cost, in dollars; undefined without a price. */
export function costOf(usage: Usage, price: ModelPrice | undefined): number | undefined {
  if (!price) return undefined;
  const cached = Math.min(usage.cached_tokens, usage.prompt_tokens);
  return ((usage.prompt_tokens - cached) * price.input + cached * (price.cached_input ?? price.input) +
    usage.completion_tokens * price.output) / 1_000_000;
}

/** The cost over models; undefined when no model used has a price, `partial` when some lack one. */
export function sessionCost(
  byModel: Record<string, Usage>,
  prices: Record<string, ModelPrice> | undefined,
): { usd: number; partial: boolean } | undefined {
  let usd = 0;
  let priced = 0;
  let unpriced = 0;
  for (const [model, usage] of Object.entries(byModel)) {
    const cost = costOf(usage, prices?.[model]);
    if (cost === undefined) unpriced++;
    else {
      usd += cost;
      priced++;
    }
  }
  return priced ? { usd, partial: unpriced > 0 } : undefined;
}

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

/**
 * Gathers the usage of one streamed response. Providers send it once, twice (Groq and Hugging Face: on the
 * finish chunk and again on a trailing chunk) or as running totals on every chunk (Perplexity): each usage
 * object replaces the fields of the one before, so the response counts once, with its last figures.
 */
export class ResponseUsage {
  #raw: Record<string, unknown> = {};

  /** Take in the `usage` object of one chunk (Chat Completions shape; null and non-objects are ignored). */
  add(usage: unknown): void {
    if (!usage || typeof usage !== "object") return;
    for (const [key, value] of Object.entries(usage)) {
      if (value === null || value === undefined) continue;
      const before = this.#raw[key];
      this.#raw[key] = isObject(value) && isObject(before) ? { ...before, ...value } : value;
    }
  }

  /** Whether any usage arrived. */
  get seen(): boolean {
    return Object.keys(this.#raw).length > 0;
  }

  /** The response's usage in navi's terms (see {@link normalizeUsage}). */
  usage(): Usage {
    return normalizeUsage(this.#raw);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/**
 * A provider's usage object (Chat Completions shape, with the variants providers send) in navi's terms.
 * `completion_tokens` always includes the reasoning: xAI and Vercel's gateway report reasoning tokens beside
 * completion tokens (more reasoning than completion, or a total that counts both), Gemini's OpenAI endpoint
 * counts its thoughts only in `total_tokens`; then the reasoning is added to the completion. Cached tokens
 * come from `prompt_tokens_details.cached_tokens` (or DeepSeek's `prompt_cache_hit_tokens`, Anthropic-style
 * `cache_read_input_tokens`), cache writes from `cache_write_tokens` or `cache_creation_input_tokens`.
 */
export function normalizeUsage(raw: Record<string, unknown>): Usage {
  const prompt = count(raw.prompt_tokens) ?? 0;
  const completion = count(raw.completion_tokens) ?? 0;
  const total = count(raw.total_tokens);
  const pd = isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const cd = isObject(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
  const cached = count(pd.cached_tokens) ?? count(raw.prompt_cache_hit_tokens) ??
    count(raw.cache_read_input_tokens) ?? 0;
  const writes = count(pd.cache_write_tokens) ?? count(raw.cache_creation_input_tokens) ?? 0;
  let reasoning = count(cd.reasoning_tokens) ?? 0;
  let generated = completion;
  const gap = total === undefined ? 0 : total - prompt - completion;
  if (reasoning > 0 && (reasoning > completion || gap >= reasoning)) generated = completion + reasoning;
  else if (reasoning === 0 && gap > 0 && gap !== cached + writes) {
    reasoning = gap;
    generated = completion + gap;
  }
  return {
    prompt_tokens: prompt,
    completion_tokens: generated,
    total_tokens: prompt + generated,
    cached_tokens: cached,
    reasoning_tokens: reasoning,
    cache_write_tokens: writes,
  };
}
