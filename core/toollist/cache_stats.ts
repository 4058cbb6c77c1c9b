import type { OpenAITool, ToolRegistry } from "../tool/mod.ts";
import { CALL_TOOL, FIND_TOOLS } from "./search.ts";
import type { Message } from "../provider/mod.ts";
import type { RequestRecord } from "../session/mod.ts";

/** A request that did not extend the prefix of the request before it. */
export interface CacheBreak {
  /** The request's number in the session (from 1). */
  request: number;
  /** The first part that changed: `tools[12] (list_changed from docs)`, `messages[3]`, `system prompt`. */
  at: string;
}

/** The session's prompt-cache figures. */
export interface CacheSummary {
  /** Model requests of the session. */
  requests: number;
  /** Prompt tokens over all requests. */
  prompt_tokens: number;
  /** Of those, tokens served from the cache. */
  cached_tokens: number;
  /** Prompt tokens written to the cache, where the provider reports them (Anthropic's cache_creation). */
  cache_write_tokens: number;
  /** cached / prompt tokens; null before any prompt tokens were reported. */
  hit_ratio: number | null;
  /** Every request that did not extend the previous request's prefix. */
  breaks: CacheBreak[];
}

/** The parts of one request in the order a provider caches them: the tools, then the messages. */
export interface RequestParts {
  /** The tools array. */
  tools: readonly OpenAITool[];
  /** The messages, system prompt first. */
  messages: readonly Message[];
}

const encoder = new TextEncoder();

/**
 * The prompt-cache view of one session, computed from navi's own request bytes (so it works with any
 * provider): for each request, whether it extends the previous one and if not where it first differs; with the
 * provider's usage, the hit ratio.
 */
export class CacheStats {
  #parts = new WeakMap<object, { json: string; bytes: number }>();
  #previous?: { tools: string[]; messages: string[] };
  #records: RequestRecord[];
  #label: (tool: string) => string;

  /**
   * `history`: the session's earlier request records; `previous`: the last request sent before (a resume);
   * `label(tool)`: why a tool may have changed, e.g. `list_changed from docs`.
   */
  constructor(
    opts: { history?: RequestRecord[]; previous?: RequestParts; label?: (tool: string) => string } = {},
  ) {
    this.#records = [...(opts.history ?? [])];
    this.#label = opts.label ?? (() => "");
    if (opts.previous) this.#previous = this.#serialize(opts.previous);
  }

  /**
   * The JSON of one tool or message as it is sent, and its length in UTF-8 bytes (cached per object). A
   * message's own `_` keys (navi's `_reasoning`, kept for the provider that produced it) are left out.
   */
  part(value: object): { json: string; bytes: number } {
    let p = this.#parts.get(value);
    if (!p) {
      const json = JSON.stringify(value, function (this: unknown, key, v) {
        return this === value && key.startsWith("_") ? undefined : v;
      });
      p = { json, bytes: encoder.encode(json).length };
      this.#parts.set(value, p);
    }
    return p;
  }

  /** Tokens (bytes / 4) of `messages`: the conversation after the tools. */
  tokens(messages: readonly Message[]): number {
    let bytes = 0;
    for (const m of messages) bytes += this.part(m).bytes;
    return Math.floor(bytes / 4);
  }

  /** Compare a request about to go out with the previous one; the first part that differs, or undefined. */
  observe(request: RequestParts): string | undefined {
    const now = this.#serialize(request);
    const before = this.#previous;
    this.#previous = now;
    if (!before) return undefined;
    const tools = Math.max(now.tools.length, before.tools.length);
    for (let i = 0; i < tools; i++) {
      if (now.tools[i] === before.tools[i]) continue;
      const tool = (i < request.tools.length ? request.tools[i] : undefined)?.function.name ??
        JSON.parse(before.tools[i]).function?.name;
      const why = i < request.tools.length ? this.#label(tool) : `${tool} removed`;
      return `tools[${i}]${why ? ` (${why})` : ""}`;
    }
    for (let j = 0; j < before.messages.length; j++) {
      if (now.messages[j] === before.messages[j]) continue;
      return j === 0 && request.messages[0]?.role === "system" ? "system prompt" : `messages[${j}]`;
    }
    return undefined;
  }

  /** Add a finished request; returns it. */
  record(record: RequestRecord): RequestRecord {
    this.#records.push(record);
    return record;
  }

  /** When the last request went out (ms since the epoch), if any. */
  lastRequestAt(): number | undefined {
    const at = this.#records.at(-1)?.at;
    return at ? Date.parse(at) : undefined;
  }

  /** The session's hit ratio and cache breaks. */
  summary(): CacheSummary {
    let prompt = 0;
    let cached = 0;
    let written = 0;
    const breaks: CacheBreak[] = [];
    this.#records.forEach((r, i) => {
      prompt += r.prompt_tokens;
      cached += r.cached_tokens;
      written += r.cache_write_tokens ?? 0;
      if (r.break) breaks.push({ request: i + 1, at: r.break });
    });
    return {
      requests: this.#records.length,
      prompt_tokens: prompt,
      cached_tokens: cached,
      cache_write_tokens: written,
      hit_ratio: prompt ? Math.round((cached / prompt) * 10_000) / 10_000 : null,
      breaks,
    };
  }

  #serialize(request: RequestParts): { tools: string[]; messages: string[] } {
    return {
      tools: request.tools.map((t) => this.part(t).json),
      messages: request.messages.map((m) => this.part(m).json),
    };
  }
}

/**
 * Why a tool of the array may have changed, from where it comes: `list_changed from <server>` (MCP),
 * `plugin <file>`, `approval mode <mode>` (built-ins come and go with plan mode), or `removed`.
 */
export function toolChangeLabel(
  registry: Pick<ToolRegistry, "sourceOf">,
  mode: () => string,
): (tool: string) => string {
  return (tool) => {
    if (tool === CALL_TOOL || tool === FIND_TOOLS) return `navi's ${tool}`;
    const source = registry.sourceOf(tool);
    if (!source) return `${tool} removed`;
    if (source.kind === "mcp") return `list_changed from ${source.origin}`;
    if (source.kind === "plugin") return `plugin ${source.origin}`;
    return `approval mode ${mode()}`;
  };
}
