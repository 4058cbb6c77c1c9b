// How much a model can read and write: the context window and the output reserve.

/** Limits of one model, from config.json `models.<name>` or built-in defaults. */
export interface ModelLimits {
  /** Tokens the model reads and writes in one request, prompt and answer together. */
  contextWindow: number;
  /** The most tokens an answer may have; kept free of the prompt. */
  maxOutputTokens: number;
  /** Where the figures come from. */
  source: "config" | "built-in" | "fallback";
}

import type { ModelSettings } from "../config/mod.ts";

/** Model families by name prefix (longest prefix wins): [prefix, context window, max output tokens]. */
const FAMILIES: [string, number, number][] = [
  ["gpt-5", 400_000, 128_000],
  ["gpt-4.1", 1_047_576, 32_768],
  ["gpt-4o", 128_000, 16_384],
  ["gpt-4-turbo", 128_000, 4_096],
  ["gpt-4", 8_192, 4_096],
  ["gpt-3.5-turbo", 16_385, 4_096],
  ["o1", 200_000, 100_000],
  ["o3", 200_000, 100_000],
  ["o4-mini", 200_000, 100_000],
  ["claude", 200_000, 32_000],
  ["gemini", 1_048_576, 65_536],
  ["deepseek", 128_000, 8_192],
  ["qwen", 131_072, 8_192],
  ["llama-3", 131_072, 8_192],
  ["llama3", 131_072, 8_192],
  ["mistral", 128_000, 8_192],
  ["codestral", 256_000, 8_192],
  ["grok", 256_000, 32_768],
];

/** What navi assumes of a model it knows nothing about: small enough for most local models. */
export const FALLBACK_LIMITS: ModelLimits = {
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  source: "fallback",
};

/** The limits of `model`: config first, then the built-in families (by name, ignoring a `vendor/` prefix). */
export function modelLimits(
  model: string | undefined,
  models: Record<string, ModelSettings> = {},
): ModelLimits {
  const name = (model ?? "").toLowerCase();
  const configured = model ? models[model] : undefined;
  const base = name.slice(name.lastIndexOf("/") + 1);
  const family = FAMILIES.filter(([prefix]) => base.startsWith(prefix))
    .sort((a, b) => b[0].length - a[0].length)[0];
  const known: ModelLimits = family
    ? { contextWindow: family[1], maxOutputTokens: family[2], source: "built-in" }
    : FALLBACK_LIMITS;
  if (!configured) return known;
  const contextWindow = configured.context_window ?? known.contextWindow;
  return {
    contextWindow,
    maxOutputTokens: Math.min(configured.max_output_tokens ?? known.maxOutputTokens, contextWindow),
    source: "config",
  };
}

/**
 * Prompt tokens a request may have: the window minus what the answer needs. The reserve is the model's output
 * limit, but at most a quarter of the window (a model with a large output limit does not need all of it
 * for every answer) and at least 1,024 tokens.
 */
export function promptBudget(limits: ModelLimits): number {
  const reserve = Math.max(1_024, Math.min(limits.maxOutputTokens, Math.floor(limits.contextWindow / 4)));
  return Math.max(0, limits.contextWindow - reserve);
}
