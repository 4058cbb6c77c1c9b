import {
  type Chunk,
  type ChunkDelta,
  type Message,
  type Reasoning,
  type ResponseOrigin,
  ResponseUsage,
  type ToolCall,
  type ToolCallDelta,
  type Usage,
} from "../provider/mod.ts";

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

/** What a ResponseAssembler tells its caller while a response streams in. */
export interface AssemblerEvents {
  /** A piece of the answer text. */
  onText?(delta: string): void;
  /** A piece of the model's reasoning (shown apart from the answer). */
  onReasoning?(delta: string): void;
  /** A tool call's name, as soon as its arguments start (before the response is complete). */
  onToolName?(name: string): void;
}

/**
 * Assembles one streamed response: text deltas are joined, tool-call pieces are joined by `index` (id and
 * name arrive first, arguments in pieces), reasoning is kept in the form its provider needs back, and the
 * response's usage is written to `usage` once, however many chunks carry it.
 */
export class ResponseAssembler {
  /** The response text so far. */
  text = "";
  /** Which provider, model and API the response comes from (told by the ChatFn's `onOpen`). */
  origin?: ResponseOrigin;
  #calls: (ToolCall & { extra?: unknown })[] = [];
  #usage: Usage;
  #seen = new ResponseUsage();
  #events: AssemblerEvents;
  #reasoning = "";
  #field?: Reasoning["field"];
  #details: Record<string, unknown>[] = [];
  #items: Record<string, unknown>[] = [];

  /** `usage` is set to the response's usage as it arrives; `events` hear text, reasoning and tool names. */
  constructor(usage: Usage, events: AssemblerEvents = {}) {
    this.#usage = usage;
    this.#events = events;
  }

  /** The reasoning text so far. */
  get reasoning(): string {
    return this.#reasoning;
  }

  /** Take in one chunk. */
  add(chunk: Chunk): void {
    if (chunk.usage) {
      this.#seen.add(chunk.usage);
      Object.assign(this.#usage, this.#seen.usage());
    }
    const delta = chunk.choices?.find((c) => (c.index ?? 0) === 0)?.delta;
    if (!delta) return;
    this.#addReasoning(delta);
    if (typeof delta.content === "string" && delta.content) {
      this.text += delta.content;
      this.#events.onText?.(delta.content);
    }
    for (const tc of delta.tool_calls ?? []) this.#addCall(tc);
  }

  #addReasoning(delta: ChunkDelta): void {
    let piece = "";
    if (typeof delta.reasoning_content === "string") {
      this.#field ??= "reasoning_content";
      piece = delta.reasoning_content;
    } else if (typeof delta.reasoning === "string" && delta.reasoning) {
      this.#field ??= "reasoning";
      piece = delta.reasoning;
    }
    for (const d of delta.reasoning_details ?? []) {
      const text = this.#addDetail(d);
      if (!piece && delta.reasoning == null) piece = text;
    }
    for (const item of delta.reasoning_items ?? []) this.#items.push(item);
    if (piece) {
      this.#reasoning += piece;
      this.#events.onReasoning?.(piece);
    }
  }

  /** Join one `reasoning_details` piece with the one of its index; returns its readable text. */
  #addDetail(d: Record<string, unknown>): string {
    if (!d || typeof d !== "object") return "";
    const at = typeof d.index === "number" ? this.#details.findIndex((x) => x.index === d.index) : -1;
    if (at < 0) this.#details.push({ ...d });
    else {
      const into = this.#details[at];
      for (const [key, value] of Object.entries(d)) {
        if (
          (key === "text" || key === "summary") && typeof value === "string" && typeof into[key] === "string"
        ) {
          into[key] = (into[key] as string) + value;
        } else if (value !== null && value !== undefined) into[key] = value;
      }
    }
    const text = d.type === "reasoning.summary" ? d.summary : d.type === "reasoning.text" ? d.text : "";
    return typeof text === "string" ? text : "";
  }

  #addCall(tc: ToolCallDelta): void {
    const last = this.#calls.at(-1);
    const index = tc.index ??
      (tc.id && tc.id !== last?.id ? this.#calls.length : Math.max(this.#calls.length - 1, 0));
    const call = this.#calls[index] ??= { id: "", name: "", arguments: "" };
    if (tc.id) call.id = tc.id;
    const name = tc.function?.name;
    if (name) call.name = call.name && call.name !== name ? call.name + name : name;
    if (tc.extra_content !== undefined && tc.extra_content !== null) call.extra = tc.extra_content;
    if (tc.function?.arguments) {
      if (!call.arguments) this.#events.onToolName?.(call.name);
      call.arguments += tc.function.arguments;
    }
  }

  /** The complete tool calls, each with an id (one is made up when the provider sent none). */
  calls(): ToolCall[] {
    return this.#complete().map(({ extra: _extra, ...c }) => c);
  }

  #complete(): (ToolCall & { extra?: unknown })[] {
    return this.#calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_navi_${Date.now()}_${i}` }));
  }

  /** What the message keeps of the reasoning, or undefined when the response had none. */
  #kept(calls: (ToolCall & { extra?: unknown })[]): Reasoning | undefined {
    const extras = calls.filter((c) => c.extra !== undefined);
    if (!this.#field && !this.#reasoning && !this.#details.length && !this.#items.length && !extras.length) {
      return undefined;
    }
    const origin = this.origin ?? { provider: "", model: "", api: "chat" as const };
    return {
      ...origin,
      ...(this.#reasoning ? { text: this.#reasoning } : {}),
      ...(this.#field ? { field: this.#field } : {}),
      ...(this.#details.length ? { details: this.#details } : {}),
      ...(extras.length ? { callExtras: Object.fromEntries(extras.map((c) => [c.id, c.extra])) } : {}),
      ...(this.#items.length ? { items: this.#items } : {}),
    };
  }

  /**
   * The assistant message of the complete response (content is never null without tool calls). Its reasoning
   * is kept as `_reasoning` (see core/provider's `chatMessages` for who gets it back).
   */
  message(): Message {
    const calls = this.#complete();
    const reasoning = this.#kept(calls);
    const kept = reasoning ? { _reasoning: reasoning } : {};
    if (!calls.length) return { role: "assistant", content: this.text, ...kept };
    return {
      role: "assistant",
      content: this.text || null,
      tool_calls: calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
      ...kept,
    };
  }

  /**
   * The assistant message that keeps an incomplete response: the text that arrived and the marker for
   * `why`; tool calls it had begun are left out (they were never run) and mentioned in the marker; the
   * reasoning text is kept for the record. Undefined when nothing arrived.
   */
  partialMessage(why: CutReason): Message | undefined {
    const begun = this.#calls.filter(Boolean).length;
    if (!this.text && !begun) return undefined;
    const marker = begun
      ? CUT_MARKERS[why].replace("]", `; ${begun} tool call(s) in it were not run]`)
      : CUT_MARKERS[why];
    const origin = this.origin ?? { provider: "", model: "", api: "chat" as const };
    return {
      role: "assistant",
      content: this.text ? `${this.text}\n\n${marker}` : marker,
      ...(this.#reasoning ? { _reasoning: { ...origin, text: this.#reasoning } } : {}),
    };
  }
}
