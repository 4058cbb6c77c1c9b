import type { Chunk, Message, ToolCall, Usage } from "../provider/mod.ts";

/** Why a response is incomplete: the user interrupted it, or its stream broke off or ended early. */
export type CutReason = "interrupted" | "cut";

/**
 * The marker that ends an incomplete answer kept in the session. It is part of the message text, so the
 * model sees on the next request that its previous answer was cut, and every provider accepts it.
 */
export const CUT_MARKERS: Readonly<Record<CutReason, string>> = {
  interrupted: "[interrupted by the user: this answer is incomplete]",
  cut: "[the response stream broke off: this answer is incomplete]",
};

/**
 * Assembles one streamed response: text deltas are joined, tool-call pieces are joined by `index` (id and
 * name arrive first, arguments in pieces), usage is added to `usage`.
 */
export class ResponseAssembler {
  /** The response text so far. */
  text = "";
  #calls: ToolCall[] = [];
  #usage: Usage;
  #onText?: (delta: string) => void;
  #onToolName?: (name: string) => void;

  /**
   * `usage` is added to as usage arrives; `opts.onText` hears every text delta, `opts.onToolName` a tool
   * call's name as soon as its arguments start (before the response is complete).
   */
  constructor(usage: Usage, opts: { onText?(delta: string): void; onToolName?(name: string): void } = {}) {
    this.#usage = usage;
    this.#onText = opts.onText;
    this.#onToolName = opts.onToolName;
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
      if (tc.function?.arguments) {
        if (!call.arguments) this.#onToolName?.(call.name);
        call.arguments += tc.function.arguments;
      }
    }
  }

  /** The complete tool calls, each with an id (one is made up when the provider sent none). */
  calls(): ToolCall[] {
    return this.#calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_navi_${Date.now()}_${i}` }));
  }

  /** The assistant message of the complete response (content is never null without tool calls). */
  message(): Message {
    const calls = this.calls();
    if (!calls.length) return { role: "assistant", content: this.text };
    return {
      role: "assistant",
      content: this.text || null,
      tool_calls: calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }

  /**
   * The assistant message that keeps an incomplete response: the text that arrived and the marker for
   * `why`; tool calls it had begun are left out (they were never run) and mentioned in the marker.
   * Undefined when nothing arrived.
   */
  partialMessage(why: CutReason): Message | undefined {
    const begun = this.#calls.filter(Boolean).length;
    if (!this.text && !begun) return undefined;
    const marker = begun
      ? CUT_MARKERS[why].replace("]", `; ${begun} tool call(s) in it were not run]`)
      : CUT_MARKERS[why];
    return { role: "assistant", content: this.text ? `${this.text}\n\n${marker}` : marker };
  }
}
