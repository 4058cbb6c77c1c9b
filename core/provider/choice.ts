import type { Config } from "../config/mod.ts";
import { resolveEnvRef } from "../output/mod.ts";

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
  const configured = Object.keys(config.providers ?? {});
  const name = overrides.provider ?? config.provider ?? (configured.length === 1 ? configured[0] : undefined);
  if (name && !config.providers?.[name]) {
    const known = configured.length ? `configured: ${configured.join(", ")}` : "none is configured";
    throw new ProviderError(`unknown provider "${name}": config.json providers has no such entry (${known})`);
  }
  const model = overrides.model ?? config.model ?? env.get("OPENAI_MODEL");
  if (!name && !env.get("OPENAI_API_KEY")) {
    throw new ProviderError(
      `no provider configured: set OPENAI_API_KEY${
        model ? "" : " and OPENAI_MODEL"
      }, or add providers to config.json`,
    );
  }
  if (!model) {
    throw new ProviderError('no model configured: set "model" in config.json, OPENAI_MODEL, or pass --model');
  }
  if (!name) {
    return { name: "openai", baseURL: env.get("OPENAI_BASE_URL"), apiKey: env.get("OPENAI_API_KEY")!, model };
  }
  const p = config.providers![name];
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
