// OpenAI's Responses API behind navi's chat interface: stored messages become a stateless request (`store:
// false`, the whole input, encrypted reasoning items carried back), the event stream becomes chat chunks.
import { oneLine, parse, readEvents, type ReadOptions } from "./chat_stream.ts";
import type { Chunk, Message, Reasoning, ResponseOrigin } from "./messages.ts";
import { abortError } from "./retry.ts";
import { sameOrigin } from "./wire.ts";

type Item = Record<string, unknown>;

/** A Chat Completions tool (`{type, function: {name, description, parameters}}`) as a Responses tool. */
export function responsesTools(tools: readonly Record<string, unknown>[]): Item[] {
  return tools.map((t) => {
    const f = (t.function ?? {}) as Record<string, unknown>;
    return {
      type: "function",
      name: f.name,
      ...(f.description !== undefined ? { description: f.description } : {}),
      parameters: f.parameters ?? null,
      strict: false,
    };
  });
}

/**
 * Stored messages as the Responses `input`: system and user messages as messages, an assistant message as its
 * reasoning items (those `target` produced, with their encrypted content and without ids: nothing is stored
 * server-side), its text and its function calls, a tool message as a function call output.
 */
export function responsesInput(messages: readonly Message[], target: ResponseOrigin): Item[] {
  const input: Item[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      input.push({ type: "function_call_output", call_id: m.tool_call_id, output: textOf(m.content) });
    } else if (m.role === "assistant") input.push(...assistantItems(m, target));
    else input.push({ role: m.role, content: userContent(m.content) });
  }
  return input;
}

function assistantItems(m: Message, target: ResponseOrigin): Item[] {
  const items: Item[] = [];
  const r = m._reasoning as Reasoning | undefined;
  if (sameOrigin(r, target)) {
    for (const item of r.items ?? []) {
      items.push({
        type: "reasoning",
        summary: item.summary ?? [],
        ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}),
      });
    }
  }
  const text = textOf(m.content);
  if (text) items.push({ role: "assistant", content: text });
  for (const c of (m.tool_calls ?? []) as { id: string; function: { name: string; arguments: string } }[]) {
    items.push({
      type: "function_call",
      call_id: c.id,
      name: c.function.name,
      arguments: c.function.arguments,
    });
  }
  return items;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (p && typeof p.text === "string" ? p.text : "")).join("");
}

function userContent(content: unknown): unknown {
  if (!Array.isArray(content)) return textOf(content);
  return content.map((p: Record<string, unknown>) => {
    if (p.type === "image_url") {
      const url = (p.image_url as { url?: string } | undefined)?.url;
      return { type: "input_image", image_url: url, detail: "auto" };
    }
    return { type: "input_text", text: typeof p.text === "string" ? p.text : "" };
  });
}

/** Responses usage (`input_tokens`, `output_tokens`, details) in the Chat Completions shape. */
function chatUsage(u: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!u) return undefined;
  const input = (u.input_tokens_details ?? {}) as Record<string, unknown>;
  const output = (u.output_tokens_details ?? {}) as Record<string, unknown>;
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    total_tokens: u.total_tokens,
    prompt_tokens_details: {
      cached_tokens: input.cached_tokens,
      cache_write_tokens: input.cache_write_tokens,
    },
    completion_tokens_details: { reasoning_tokens: output.reasoning_tokens },
  };
}

const delta = (d: Record<string, unknown>, finish: string | null = null, usage?: unknown): Chunk => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
  ...(usage ? { usage: usage as Record<string, unknown> } : {}),
});

/** Turns the events of one Responses stream into chat chunks; `done` once the response completed. */
class EventMapper {
  done = false;
  #calls = new Map<string, { index: number; args: string }>();
  #summaryPart = -1;
  readonly opts: ReadOptions;

  constructor(opts: ReadOptions) {
    this.opts = opts;
  }

  map(type: string, e: Record<string, unknown>): Chunk | undefined {
    const item = e.item as Item | undefined;
    switch (type) {
      case "response.output_text.delta":
        return delta({ content: String(e.delta ?? "") });
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.#reasoning(e);
      case "response.output_item.added":
        return item?.type === "function_call" ? this.#callStart(item) : undefined;
      case "response.function_call_arguments.delta":
        return this.#callArgs(String(e.item_id ?? ""), String(e.delta ?? ""));
      case "response.output_item.done":
        if (item?.type === "reasoning") return delta({ reasoning_items: [item] });
        if (item?.type === "function_call") return this.#callArgsDone(item);
        return undefined;
      case "response.completed":
      case "response.incomplete":
        return this.#finish(type, e.response as Item | undefined);
      case "response.failed":
      case "error":
        throw this.opts.fail(`API error from ${this.opts.where} in the response stream: ${errorText(e)}`);
    }
    return undefined;
  }

  #reasoning(e: Record<string, unknown>): Chunk {
    const part = typeof e.summary_index === "number" ? e.summary_index : 0;
    const gap = this.#summaryPart >= 0 && part !== this.#summaryPart ? "\n\n" : "";
    this.#summaryPart = part;
    return delta({ reasoning: gap + String(e.delta ?? "") });
  }

  #callStart(item: Item): Chunk {
    const index = this.#calls.size;
    const args = String(item.arguments ?? "");
    this.#calls.set(String(item.id ?? item.call_id), { index, args });
    return delta({
      tool_calls: [{
        index,
        id: item.call_id as string,
        function: { name: item.name as string, arguments: args },
      }],
    });
  }

  #callArgs(id: string, piece: string): Chunk | undefined {
    const call = this.#calls.get(id);
    if (!call || !piece) return undefined;
    call.args += piece;
    return delta({ tool_calls: [{ index: call.index, function: { arguments: piece } }] });
  }

  #callArgsDone(item: Item): Chunk | undefined {
    const call = this.#calls.get(String(item.id ?? item.call_id));
    const full = String(item.arguments ?? "");
    if (!call || !full.startsWith(call.args) || full === call.args) return undefined;
    return this.#callArgs(String(item.id ?? item.call_id), full.slice(call.args.length));
  }

  #finish(type: string, response: Item | undefined): Chunk {
    this.done = true;
    const reason = type === "response.incomplete" ? "length" : this.#calls.size ? "tool_calls" : "stop";
    return delta({}, reason, chatUsage(response?.usage as Record<string, unknown> | undefined));
  }
}

function errorText(e: Record<string, unknown>): string {
  const response = e.response as Item | undefined;
  const error = (response?.error ?? e.error ?? e) as { message?: unknown; code?: unknown };
  return oneLine(String(error.message ?? error.code ?? "the response failed"));
}

/**
 * The chunks of a streamed Responses body, in the Chat Completions chunk shape (text, reasoning summaries,
 * function calls by index, complete reasoning items as `reasoning_items`, the usage with the finish chunk).
 * The stream is complete with `response.completed` (or `response.incomplete`, finish reason `length`); a body
 * that ends before, or breaks off, throws `fail(...)` after the chunks that arrived; `response.failed` and
 * `error` events throw `fail(...)`; an abort throws an `AbortError`.
 */
export async function* readResponsesStream(
  body: ReadableStream<Uint8Array>,
  opts: ReadOptions,
): AsyncGenerator<Chunk> {
  const mapper = new EventMapper(opts);
  for await (const { event, data, tail } of readEvents(body, opts)) {
    if (data.trim() === "[DONE]") continue;
    const e = parse(data, opts, tail);
    if (!e) continue;
    const chunk = mapper.map(String(e.type ?? event ?? ""), e as Record<string, unknown>);
    if (chunk) yield chunk;
  }
  if (opts.signal.aborted) throw abortError(opts.signal);
  if (!mapper.done) {
    throw opts.fail(
      `the response stream from ${opts.where} ended before the answer was complete (no response.completed)`,
    );
  }
}
