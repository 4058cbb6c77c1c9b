// The providers navi knows by name: base URL, key variable and the quirks it handles for each.

/** A provider navi knows by name: `"provider": "<name>"` works without a `providers` entry. */
export interface ProviderPreset {
  /** The name used in config.json and `--provider`. */
  name: string;
  /** Who runs it, for `navi providers`. */
  label: string;
  /** Its OpenAI-compatible endpoint. */
  base_url: string;
  /** The environment variable holding its API key; absent for local servers that need none. */
  key?: string;
  /** The key variable may be unset (a local server started without a key). */
  keyOptional?: boolean;
  /** The server rejects fields it does not know: no `prompt_cache_key`. */
  noPromptCacheKey?: boolean;
  /** OpenRouter's dialect: effort as `reasoning.effort`, `cache_control` for `anthropic/` models. */
  openrouter?: boolean;
  /** One line on what navi handles for it (for `navi providers` and the docs). */
  note: string;
}

/** The presets, in the order `navi providers` lists them. */
export const PRESETS: readonly ProviderPreset[] = [
  {
    name: "openai",
    label: "OpenAI",
    base_url: "https://api.openai.com/v1",
    key: "OPENAI_API_KEY",
    note: 'Chat Completions; "api": "responses" for the Responses API',
  },
  {
    name: "openrouter",
    label: "OpenRouter",
    base_url: "https://openrouter.ai/api/v1",
    key: "OPENROUTER_API_KEY",
    openrouter: true,
    note: "reasoning_details sent back; cache_control marks for anthropic/ models",
  },
  {
    name: "groq",
    label: "Groq",
    base_url: "https://api.groq.com/openai/v1",
    key: "GROQ_API_KEY",
    note: "usage sent twice per response, counted once",
  },
  {
    name: "deepseek",
    label: "DeepSeek",
    base_url: "https://api.deepseek.com",
    key: "DEEPSEEK_API_KEY",
    note: "reasoning_content sent back on tool-call turns",
  },
  {
    name: "mistral",
    label: "Mistral",
    base_url: "https://api.mistral.ai/v1",
    key: "MISTRAL_API_KEY",
    noPromptCacheKey: true,
    note: "rejects unknown fields: no prompt_cache_key, no other provider's reasoning",
  },
  {
    name: "xai",
    label: "xAI",
    base_url: "https://api.x.ai/v1",
    key: "XAI_API_KEY",
    note: "reasoning tokens reported beside completion tokens, added to them",
  },
  {
    name: "gemini",
    label: "Google Gemini (OpenAI endpoint)",
    base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
    key: "GEMINI_API_KEY",
    noPromptCacheKey: true,
    note: "tool calls' extra_content (thought signatures) sent back unchanged",
  },
  {
    name: "cerebras",
    label: "Cerebras",
    base_url: "https://api.cerebras.ai/v1",
    key: "CEREBRAS_API_KEY",
    note: "streams end without data: [DONE]",
  },
  {
    name: "huggingface",
    label: "Hugging Face router",
    base_url: "https://router.huggingface.co/v1",
    key: "HF_TOKEN",
    note: "usage sent twice per response (Groq-served models), counted once",
  },
  {
    name: "ollama",
    label: "Ollama (local)",
    base_url: "http://localhost:11434/v1",
    note: "no key; not recorded",
  },
  {
    name: "llamacpp",
    label: "llama.cpp server (local)",
    base_url: "http://localhost:8080/v1",
    note: "no key; reasoning_content sent back on tool-call turns",
  },
  {
    name: "lmstudio",
    label: "LM Studio (local)",
    base_url: "http://localhost:1234/v1",
    note: "no key; not recorded",
  },
  {
    name: "vllm",
    label: "vLLM (local)",
    base_url: "http://localhost:8000/v1",
    key: "VLLM_API_KEY",
    keyOptional: true,
    note: "VLLM_API_KEY when the server was started with --api-key; not recorded",
  },
];

/** The preset named `name`, if any. */
export function presetNamed(name: string | undefined): ProviderPreset | undefined {
  return name === undefined ? undefined : PRESETS.find((p) => p.name === name);
}

/**
 * The presets' key variables as `providers` entries (`{ groq: { api_key: "$GROQ_API_KEY" } }`): the app adds
 * them to its secrets, so their values are redacted and kept from tool processes like configured keys.
 */
export function presetKeyRefs(): Record<string, { api_key: string }> {
  return Object.fromEntries(PRESETS.filter((p) => p.key).map((p) => [p.name, { api_key: `$${p.key}` }]));
}
