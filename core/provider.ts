import type { Config } from "./config.ts";
import { resolveEnvRef } from "./secrets.ts";

/** The endpoint and model one request goes to. */
export interface ProviderChoice {
  /** The provider's name in config.json, or `openai` when none is configured. */
  name: string;
  /** The API endpoint; absent means OpenAI's own. */
  baseURL?: string;
  /** The resolved API key (`none` when the provider is configured without one). */
  apiKey: string;
  /** The model every request names. */
  model: string;
  /** false when the provider's config says `prompt_cache_key: false` (requests then carry none). */
  promptCacheKey?: boolean;
}

/** No usable provider or model; the message says what to set. */
export class ProviderError extends Error {}

/**
 * Choose the provider and model for the next request: flags override config; with no provider
 * configured, OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL are used.
 */
export function resolveProvider(
  config: Config,
  overrides: { provider?: string; model?: string },
  env: { get(key: string): string | undefined } = Deno.env,
): ProviderChoice {
  const name = overrides.provider ?? config.provider ??
    (Object.keys(config.providers ?? {}).length === 1 ? Object.keys(config.providers!)[0] : undefined);
  const model = overrides.model ?? config.model ?? env.get("OPENAI_MODEL");
  if (!model) throw new ProviderError('no model configured: set "model" in config.json or pass --model');
  if (!name) {
    const apiKey = env.get("OPENAI_API_KEY");
    if (!apiKey) {
      throw new ProviderError("no provider configured: add providers to config.json or set OPENAI_API_KEY");
    }
    return { name: "openai", baseURL: env.get("OPENAI_BASE_URL"), apiKey, model };
  }
  const p = config.providers?.[name];
  if (!p) throw new ProviderError(`provider "${name}" is not in config.json providers`);
  const apiKey = resolveEnvRef(p.api_key, env);
  if (p.api_key && apiKey === undefined) {
    throw new ProviderError(`providers.${name}.api_key refers to ${p.api_key}, which is not set`);
  }
  return {
    name,
    baseURL: p.base_url,
    apiKey: apiKey ?? "none",
    model,
    ...(p.prompt_cache_key === false ? { promptCacheKey: false } : {}),
  };
}
