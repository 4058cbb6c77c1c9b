/**
 * A scripted OpenAI Responses API server on 127.0.0.1 for tests (`POST /v1/responses`, `GET /v1/models`).
 *
 * Each scripted answer streams the documented event sequence, every event as `event: <type>` plus
 * `data: <json>` with a `sequence_number`:
 * 1. `response.created`, `response.in_progress`
 * 2. per reasoning item: `response.output_item.added` (type `reasoning`), `response.reasoning_summary_part.added`,
 *    `response.reasoning_summary_text.delta` (pieces), `response.reasoning_summary_text.done`,
 *    `response.reasoning_summary_part.done`, `response.output_item.done` (with `encrypted_content`)
 * 3. for text: `response.output_item.added` (type `message`), `response.content_part.added`,
 *    `response.output_text.delta` (pieces), `response.output_text.done`, `response.content_part.done`,
 *    `response.output_item.done`
 * 4. per function call: `response.output_item.added` (type `function_call`, empty arguments),
 *    `response.function_call_arguments.delta` (pieces), `response.function_call_arguments.done`,
 *    `response.output_item.done`
 * 5. `response.completed` with the output and `usage` (input, cached, output and reasoning tokens)
 *
 * Like OpenAI with `store: false`, it refuses (400/404) input that references stored items (an `id` on a
 * reasoning item, an `item_reference`), encrypted reasoning it did not issue, and a function call output
 * without its call earlier in the input. Usage comes from a provider-like prompt cache over tools + input.
 */
import { type Fault, faultyResponse, type Progress } from "./llm_faults.ts";
import { type CacheUsage, PromptCache } from "./llm_cache.ts";

/** One scripted answer, or an HTTP error with headers. */
export type ResponsesStep =
  | {
    reasoning?: string;
    text?: string;
    toolCalls?: { name: string; arguments: string; id?: string }[];
    /** `cutAfter` counts the events above; `then: "hang"` holds the connection open (Ctrl-C tests). */
    fault?: Fault;
  }
  | { status: number; message: string; headers?: Record<string, string> };

/** One request the server received. */
export interface ResponsesRecorded {
  body: Record<string, unknown>;
  raw: string;
  at: number;
  progress: Progress;
  usage?: CacheUsage & { reasoning_tokens: number };
  /** Why the server refused the input, when it did. */
  refused?: string;
}

type Item = Record<string, unknown>;

function pieces(text: string, n = 3): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

class EventWriter {
  events: string[] = [];
  #seq = 0;
  push(type: string, fields: Record<string, unknown>): void {
    const data = JSON.stringify({ type, sequence_number: this.#seq++, ...fields });
    this.events.push(`event: ${type}\ndata: ${data}\n\n`);
  }
}

function reasoningEvents(
  w: EventWriter,
  opts: { text: string; index: number; id: string; encrypted: string },
): Item {
  const { text, index: output_index, id } = opts;
  w.push("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } });
  const part = { item_id: id, output_index, summary_index: 0 };
  w.push("response.reasoning_summary_part.added", { ...part, part: { type: "summary_text", text: "" } });
  for (const p of pieces(text)) w.push("response.reasoning_summary_text.delta", { ...part, delta: p });
  w.push("response.reasoning_summary_text.done", { ...part, text });
  w.push("response.reasoning_summary_part.done", { ...part, part: { type: "summary_text", text } });
  const item = {
    id,
    type: "reasoning",
    summary: [{ type: "summary_text", text }],
    encrypted_content: opts.encrypted,
  };
  w.push("response.output_item.done", { output_index, item });
  return item;
}

function textEvents(w: EventWriter, text: string, output_index: number): Item {
  const id = `msg_${output_index}`;
  const base = { id, type: "message", role: "assistant" };
  w.push("response.output_item.added", {
    output_index,
    item: { ...base, status: "in_progress", content: [] },
  });
  const part = { item_id: id, output_index, content_index: 0 };
  w.push("response.content_part.added", {
    ...part,
    part: { type: "output_text", text: "", annotations: [] },
  });
  for (const p of pieces(text)) w.push("response.output_text.delta", { ...part, delta: p, logprobs: [] });
  w.push("response.output_text.done", { ...part, text, logprobs: [] });
  const done = { type: "output_text", text, annotations: [] };
  w.push("response.content_part.done", { ...part, part: done });
  const item = { ...base, status: "completed", content: [done] };
  w.push("response.output_item.done", { output_index, item });
  return item;
}

function callEvents(
  w: EventWriter,
  call: { name: string; arguments: string; id: string },
  output_index: number,
) {
  const id = `fc_${output_index}`;
  const base = { id, type: "function_call", call_id: call.id, name: call.name };
  w.push("response.output_item.added", {
    output_index,
    item: { ...base, arguments: "", status: "in_progress" },
  });
  for (const p of pieces(call.arguments)) {
    w.push("response.function_call_arguments.delta", { item_id: id, output_index, delta: p });
  }
  w.push("response.function_call_arguments.done", { item_id: id, output_index, arguments: call.arguments });
  const item = { ...base, arguments: call.arguments, status: "completed" };
  w.push("response.output_item.done", { output_index, item });
  return item;
}

/** Why OpenAI would refuse this stateless input, or undefined when it accepts it. */
function refusal(
  body: Record<string, unknown>,
  issued: Set<string>,
): { status: number; message: string } | undefined {
  const input = Array.isArray(body.input) ? (body.input as Item[]) : [];
  const calls = new Set<string>();
  for (const item of input) {
    if (item.type === "item_reference" || (item.type === "reasoning" && item.id)) {
      return {
        status: 404,
        message:
          `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false.`,
      };
    }
    if (item.type === "reasoning" && !issued.has(String(item.encrypted_content))) {
      return { status: 400, message: "The encrypted content could not be verified." };
    }
    if (item.type === "function_call") calls.add(String(item.call_id));
    if (item.type === "function_call_output" && !calls.has(String(item.call_id))) {
      return {
        status: 400,
        message: `No tool call found for function call output with call_id ${item.call_id}.`,
      };
    }
  }
  return undefined;
}

/**
 * Start a server that answers `POST /responses` with `script` in order (or `script(i, body)`) and
 * `GET /models` with `opts.models`.
 */
export function startResponsesServer(
  script: ResponsesStep[] | ((i: number, body: Record<string, unknown>) => ResponsesStep),
  opts: { models?: string[] } = {},
) {
  const cache = new PromptCache();
  const requests: ResponsesRecorded[] = [];
  const issued = new Set<string>();
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "GET" && path.endsWith("/models")) {
        const data = (opts.models ?? ["m"]).map((id) => ({
          id,
          object: "model",
          created: 0,
          owned_by: "test",
        }));
        return Response.json({ object: "list", data });
      }
      if (!path.endsWith("/responses")) {
        return Response.json({ error: { message: "not found" } }, {
          status: 404,
        });
      }
      const raw = await req.text();
      const body = JSON.parse(raw);
      const index = requests.length;
      const progress: Progress = { sent: 0, hanging: false, ended: false };
      const recorded: ResponsesRecorded = { body, raw, at: Date.now(), progress };
      requests.push(recorded);
      const refused = refusal(body, issued);
      if (refused) {
        recorded.refused = refused.message;
        return Response.json({ error: { message: refused.message, type: "invalid_request_error" } }, {
          status: refused.status,
        });
      }
      const step = typeof script === "function" ? script(index, body) : script[index];
      if (!step) return Response.json({ error: { message: "script exhausted" } }, { status: 500 });
      if ("status" in step) {
        return Response.json({ error: { message: step.message, type: "test_error" } }, {
          status: step.status,
          headers: step.headers,
        });
      }
      const events = stepEvents(step, { index, body, cache, issued, recorded });
      return faultyResponse(events, { fault: step.fault ?? {}, progress, closing: controller.signal });
    },
  );
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`,
    requests,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

function stepEvents(
  step: Exclude<ResponsesStep, { status: number }>,
  ctx: {
    index: number;
    body: Record<string, unknown>;
    cache: PromptCache;
    issued: Set<string>;
    recorded: ResponsesRecorded;
  },
): string[] {
  const w = new EventWriter();
  const id = `resp_${ctx.index}`;
  const model = ctx.body.model;
  w.push("response.created", {
    response: { id, object: "response", status: "in_progress", model, output: [] },
  });
  w.push("response.in_progress", {
    response: { id, object: "response", status: "in_progress", model, output: [] },
  });
  const output: Item[] = [];
  if (step.reasoning) {
    const encrypted = `enc_${ctx.index}_${btoa(encodeURIComponent(step.reasoning)).slice(0, 24)}`;
    ctx.issued.add(encrypted);
    output.push(
      reasoningEvents(w, { text: step.reasoning, index: output.length, id: `rs_${ctx.index}`, encrypted }),
    );
  }
  if (step.text) output.push(textEvents(w, step.text, output.length));
  (step.toolCalls ?? []).forEach((c, i) => {
    output.push(callEvents(w, { ...c, id: c.id ?? `call_${ctx.index}_${i}` }, output.length));
  });
  const completion = (step.text ?? "") + (step.toolCalls ?? []).map((c) => c.name + c.arguments).join("");
  const chat = ctx.cache.usage({ model, tools: ctx.body.tools, messages: ctx.body.input }, completion);
  const reasoning = Math.ceil((step.reasoning ?? "").length / 4);
  ctx.recorded.usage = { ...chat, reasoning_tokens: reasoning };
  const usage = {
    input_tokens: chat.prompt_tokens,
    input_tokens_details: { cached_tokens: chat.prompt_tokens_details.cached_tokens },
    output_tokens: chat.completion_tokens + reasoning,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: chat.prompt_tokens + chat.completion_tokens + reasoning,
  };
  w.push("response.completed", {
    response: { id, object: "response", status: "completed", model, output, usage },
  });
  return w.events;
}
