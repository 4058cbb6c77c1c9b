import type { Config, ReasoningEffort } from "../config/mod.ts";
import { ENV_REF, resolveEnvRef } from "../output/mod.ts";
import { presetNamed, PRESETS } from "./presets.ts";

/** The endpoint and model one request goes to. */
export interface ProviderChoice {
  /** The provider's name in config.json or a preset's, or `openai` when none is configured. */
  name: string;
  /** The API endpoint; absent means OpenAI's own. */
  baseURL?: string;
  /** The resolved API key (`none` when the provider is configured without one). */
  apiKey: string;
  /** The model every request names. */
  model: string;
  /** false when the provider's config says `prompt_cache_key: false` (requests then carry none). */
  promptCacheKey?: boolean;
  /** `responses`: OpenAI's Responses API (default: Chat Completions). */
  api?: "responses";
  /** The reasoning effort requests ask for, when one is set. */
  effort?: ReasoningEffort;
  /** `anthropic`: requests carry `cache_control` breakpoints. */
  cacheControl?: "anthropic";
  /** OpenRouter: effort goes as `reasoning: { effort }`. */
  openrouter?: boolean;
}

/** No usable provider or model; the message says what to set. */
export class ProviderError extends Error {}

/** What beats config.json for the next request (flags, `/model`, `/effort`). */
export interface ProviderOverrides {
  /** A provider name (`--provider`). */
  provider?: string;
  /** A model (`--model`, `/model`). */
  model?: string;
  /** A reasoning effort (`--effort`, `/effort`). */
  effort?: ReasoningEffort;
}

/**
 * Choose the provider and model for the next request: flags override config; a name is a `providers` entry
 * (starting from the preset of its `preset` or its name) or a bare preset; with no provider configured,
 * OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL are used.
 */
export function resolveProvider(
  config: Config,
  overrides: ProviderOverrides,
  env: { get(key: string): string | undefined } = Deno.env,
): ProviderChoice {
  const configured = Object.keys(config.providers ?? {});
  const name = overrides.provider ?? config.provider ?? (configured.length === 1 ? configured[0] : undefined);
  const entry = name === undefined ? undefined : config.providers?.[name];
  const preset = presetNamed(entry?.preset ?? name);
  if (name && !entry && !preset) {
    const known = configured.length ? `configured: ${configured.join(", ")}` : "none is configured";
    throw new ProviderError(
      `unknown provider "${name}": config.json providers has no such entry (${known}) and no preset has that ` +
        `name (navi providers lists ${PRESETS.map((p) => p.name).join(", ")})`,
    );
  }
  if (entry?.preset && !preset) {
    throw new ProviderError(
      `providers.${name}.preset: no preset "${entry.preset}" (navi providers lists them)`,
    );
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
  const effort = overrides.effort ?? config.models?.[model]?.reasoning_effort ?? entry?.reasoning_effort;
  if (!name) {
    const base = env.get("OPENAI_BASE_URL");
    return {
      name: "openai",
      baseURL: base,
      apiKey: env.get("OPENAI_API_KEY")!,
      model,
      ...(effort ? { effort } : {}),
    };
  }
  const apiKey = keyOf(name, {
    ref: entry?.api_key,
    preset: preset?.key,
    optional: preset?.keyOptional,
    env,
  });
  const baseURL = entry?.base_url ?? preset?.base_url;
  const openrouter = preset?.openrouter === true || isOpenRouter(baseURL);
  const cacheControl = entry?.cache_control ??
    (openrouter && model.startsWith("anthropic/") ? "anthropic" : false);
  const noCacheKey = entry?.prompt_cache_key === false ||
    (entry?.prompt_cache_key === undefined && preset?.noPromptCacheKey);
  return {
    name,
    baseURL,
    apiKey,
    model,
    ...(noCacheKey ? { promptCacheKey: false } : {}),
    ...(entry?.api === "responses" ? { api: "responses" as const } : {}),
    ...(effort ? { effort } : {}),
    ...(cacheControl ? { cacheControl } : {}),
    ...(openrouter ? { openrouter } : {}),
  };
}

function keyOf(
  name: string,
  opts: { ref?: string; preset?: string; optional?: boolean; env: { get(key: string): string | undefined } },
): string {
  const ref = opts.ref ?? (opts.preset ? `$${opts.preset}` : undefined);
  const key = resolveEnvRef(ref, opts.env);
  if (ref && key === undefined && !(opts.ref === undefined && opts.optional)) {
    const variable = ENV_REF.exec(ref)?.[1] ?? ref;
    throw new ProviderError(
      opts.ref === undefined
        ? `provider ${name} needs its API key in ${variable}, which is not set (or set providers.${name}.api_key)`
        : `providers.${name}.api_key refers to ${opts.ref}, which is not set`,
    );
  }
  return key ?? "none";
}

function isOpenRouter(baseURL: string | undefined): boolean {
  try {
    return baseURL !== undefined && new URL(baseURL).hostname.endsWith("openrouter.ai");
  } catch {
    return false;
  }
}
