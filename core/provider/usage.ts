import type { ModelPriceSettings } from "../config/mod.ts";

/** Token counts of one turn (summed over its requests). */
export interface Usage {
  /** Tokens sent to the model (the prompt). */
  prompt_tokens: number;
  /** Tokens the model generated. */
  completion_tokens: number;
  /** Prompt plus completion tokens, as the provider reports them. */
  total_tokens: number;
  /** Prompt tokens the provider served from its prompt cache, when it reports them. */
  cached_tokens: number;
}

/** A new, zeroed Usage. */
export function emptyUsage(): Usage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 };
}

/** Prices of one model in US dollars per million tokens (config.json `prices.<model>`). */
export type ModelPrice = ModelPriceSettings;

/** Add `u` to `into` (in place); returns `into`. */
export function addUsage(into: Usage, u: Usage): Usage {
  into.prompt_tokens += u.prompt_tokens;
  into.completion_tokens += u.completion_tokens;
  into.total_tokens += u.total_tokens;
  into.cached_tokens += u.cached_tokens;
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
