import type { Chunk } from "./llm.ts";

/** A tool call as the model sent it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Token counts of one turn (summed over its requests). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Prompt tokens the provider served from its prompt cache, when it reports them. */
  cached_tokens: number;
}

/** A new, zeroed Usage. */
export function emptyUsage(): Usage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 };
}

/**
 * Assembles one streamed response: text deltas are joined, tool-call pieces are joined by `index` (id and
 * name arrive first, arguments in pieces), usage is added to `usage`.
 */
export class ResponseAssembler {
  text = "";
  #calls: ToolCall[] = [];
  #usage: Usage;
  #onText?: (delta: string) => void;

  constructor(usage: Usage, opts: { onText?(delta: string): void } = {}) {
    this.#usage = usage;
    this.#onText = opts.onText;
  }

  /** Take in one chunk. */
  add(chunk: Chunk): void {
    if (chunk.usage) {
      this.#usage.prompt_tokens += chunk.usage.prompt_tokens ?? 0;
      this.#usage.completion_tokens += chunk.usage.completion_tokens ?? 0;
      this.#usage.total_tokens += chunk.usage.total_tokens ?? 0;
      this.#usage.cached_tokens += chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
    }
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return;
    if (typeof delta.content === "string" && delta.content) {
      this.text += delta.content;
      this.#onText?.(delta.content);
    }
    for (const tc of delta.tool_calls ?? []) {
      const index = tc.index ?? this.#calls.length;
      const call = this.#calls[index] ??= { id: "", name: "", arguments: "" };
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name += tc.function.name;
      if (tc.function?.arguments) call.arguments += tc.function.arguments;
    }
  }

  /** The complete tool calls, each with an id (one is made up when the provider sent none). */
  calls(): ToolCall[] {
    return this.#calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_navi_${Date.now()}_${i}` }));
  }
}
