// A provider-like prompt cache for the scripted LLM server: it keeps the requests it has seen and answers usage
// the way OpenAI's automatic caching does (exact prefix, from 1,024 tokens, in 128-token steps).

/** Tokens per byte of the canonical serialization (a rough but fixed rate). */
export const BYTES_PER_TOKEN = 4;
/** Below this many tokens of common prefix nothing is served from the cache. */
export const MIN_CACHED_TOKENS = 1024;
/** Cached tokens are counted in steps of this size. */
export const CACHE_STEP_TOKENS = 128;

/** What a request body holds that the cache looks at. */
export interface CacheableBody {
  model?: unknown;
  tools?: unknown;
  messages?: unknown;
}

/** Usage as the server reports it (the OpenAI Chat Completions shape). */
export interface CacheUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

const encoder = new TextEncoder();

/** The canonical serialization a provider caches over: the `tools` JSON, then each message's JSON. */
export function canonical(body: CacheableBody): Uint8Array {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return encoder.encode(JSON.stringify(body.tools ?? []) + messages.map((m) => JSON.stringify(m)).join(""));
}

/** Whole tokens in `bytes` bytes. */
export function tokensOf(bytes: number): number {
  return Math.floor(bytes / BYTES_PER_TOKEN);
}

/** Length in bytes of the common prefix of `a` and `b`. */
export function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Cached tokens for a common prefix of `bytes` bytes: whole 128-token steps, nothing below 1,024 tokens. */
export function cachedTokensFor(bytes: number): number {
  const tokens = tokensOf(bytes);
  if (tokens < MIN_CACHED_TOKENS) return 0;
  return tokens - (tokens % CACHE_STEP_TOKENS);
}

/**
 * Tokens of the earlier request `before` that `after` sends again but differently: the part of `before`
 * after their common prefix. 0 when `after` extends `before`.
 */
export function rebilledTokens(before: CacheableBody, after: CacheableBody): number {
  const a = canonical(before);
  return tokensOf(a.length) - tokensOf(commonPrefix(a, canonical(after)));
}

interface Entry {
  model: string;
  bytes: Uint8Array;
  used: number;
}

/** The cache of one server: per model, the longest common prefix with any earlier request counts. */
export class PromptCache {
  #entries: Entry[] = [];
  #ttlMs?: number;
  #now: () => number;

  /** `ttlMs`: entries unused for longer are dropped (default: kept); `now` is the clock. */
  constructor(opts: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = opts.ttlMs;
    this.#now = opts.now ?? Date.now;
  }

  /** Usage of one request with `completion` as the answer's text; the request is remembered. */
  usage(body: CacheableBody, completion = ""): CacheUsage {
    const now = this.#now();
    if (this.#ttlMs !== undefined) this.#entries = this.#entries.filter((e) => now - e.used <= this.#ttlMs!);
    const model = String(body.model ?? "");
    const bytes = canonical(body);
    let best = 0;
    let hit: Entry | undefined;
    for (const e of this.#entries) {
      if (e.model !== model) continue;
      const n = commonPrefix(e.bytes, bytes);
      if (n > best) [best, hit] = [n, e];
    }
    const cached = cachedTokensFor(best);
    if (hit && cached) hit.used = now;
    this.#entries.push({ model, bytes, used: now });
    const prompt = tokensOf(bytes.length);
    const out = Math.ceil(encoder.encode(completion).length / BYTES_PER_TOKEN);
    return {
      prompt_tokens: prompt,
      completion_tokens: out,
      total_tokens: prompt + out,
      prompt_tokens_details: { cached_tokens: cached },
    };
  }
}
