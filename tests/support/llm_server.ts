/** A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 for tests. */
import { type Fault, faultyResponse, type Progress } from "./llm_faults.ts";
import { BYTES_PER_TOKEN, type CacheUsage, canonical, PromptCache } from "./llm_cache.ts";

export type { Fault, Progress };

/**
 * One scripted answer: streamed text, tool calls (arguments are sent as raw text, valid JSON or not), an
 * HTTP error with headers, a hang before the headers, or a raw body. A text or tool-call answer can carry a
 * `fault` (see llm_faults.ts): cut, ended early, hung after the headers, slow.
 */
export type Step =
  | { text: string; fault?: Fault }
  | { toolCalls: { name: string; arguments: string; id?: string }[]; text?: string; fault?: Fault }
  | { status: number; message: string; headers?: Record<string, string> }
  | { hang: true; text?: string }
  | { raw: string };

export interface Recorded {
  body: Record<string, unknown>;
  raw: string;
  headers: Headers;
  /** How far the response got (events sent, hanging, ended). */
  progress: Progress;
  /** When the request arrived (`Date.now()`). */
  at: number;
  /** The usage the server answered with (a provider-like prompt cache, see llm_cache.ts). */
  usage?: CacheUsage;
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${
    JSON.stringify({
      id: "chatcmpl-test",
      object: "chat.completion.chunk",
      created: 0,
      model: "test-model",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
  }\n\n`;
}

function pieces(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [""];
}

const FIXED_USAGE: CacheUsage = {
  prompt_tokens: 10,
  completion_tokens: 5,
  total_tokens: 15,
  prompt_tokens_details: { cached_tokens: 8 },
};

/** The text and tool-call arguments a step answers with (what its completion tokens count). */
function completionOf(step: Step): string {
  if (!("text" in step) && !("toolCalls" in step)) return "";
  const calls = "toolCalls" in step ? step.toolCalls.map((c) => c.name + c.arguments).join("") : "";
  return (step.text ?? "") + calls;
}

/** One scripted text or tool-call step as SSE events; the last three are finish, `usage` and [DONE]. */
export function sseEvents(step: Step, usage: CacheUsage = FIXED_USAGE): string[] {
  const events = [chunk({ role: "assistant", content: "" })];
  if ("text" in step && step.text) {
    for (const p of pieces(step.text, 3)) {
      events.push(chunk({ content: p }));
    }
  }
  if ("toolCalls" in step) {
    step.toolCalls.forEach((call, index) => {
      events.push(chunk({
        tool_calls: [{
          index,
          id: call.id ?? `call_${index}_${call.name}`,
          type: "function",
          function: { name: call.name, arguments: "" },
        }],
      }));
      for (const p of pieces(call.arguments, 3)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
      }
    });
  }
  events.push(chunk({}, "toolCalls" in step ? "tool_calls" : "stop"));
  events.push(`data: ${
    JSON.stringify({
      id: "chatcmpl-test",
      object: "chat.completion.chunk",
      created: 0,
      model: "test-model",
      choices: [],
      usage,
    })
  }\n\n`);
  events.push("data: [DONE]\n\n");
  return events;
}

/** Render one scripted step as SSE text, with `usage` in the last chunk. */
export function sse(step: Step, usage: CacheUsage = FIXED_USAGE): string {
  return sseEvents(step, usage).join("");
}

/** Stream `text` (in pieces), then keep the response open until the client goes away (the body is cancelled). */
function partialThenHang(text: string): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(enc.encode(chunk({ role: "assistant", content: "" })));
      for (const p of pieces(text, 3)) controller.enqueue(enc.encode(chunk({ content: p })));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/**
 * Start a server that answers chat requests with `script` in order (or `script(requestIndex, body)`), and
 * `GET /models` with `opts.models` (default `["m", "test-model"]`; only chat requests are recorded). Usage comes
 * from a provider-like prompt cache (`opts.cache`, default a fresh PromptCache): prompt tokens are bytes / 4 of
 * the tools and messages, cached tokens the common prefix with any earlier request.
 */
export function startLlmServer(
  script: Step[] | ((i: number, body: Record<string, unknown>) => Step),
  opts: {
    cache?: PromptCache;
    models?: string[];
    /**
     * The model's context window in tokens, as a provider enforces it: a request whose prompt (bytes / 4 of
     * its tools and messages) plus `max_tokens` (or nothing) exceeds it is refused with a 400
     * `context_length_exceeded`, before any scripted step is used.
     */
    window?: number;
  } = {},
) {
  const cache = opts.cache ?? new PromptCache();
  const requests: Recorded[] = [];
  /** Indexes of requests refused as over the window. */
  const refused: number[] = [];
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      if (req.method === "GET" && new URL(req.url).pathname.endsWith("/models")) {
        const data = (opts.models ?? ["m", "test-model"]).map((id) => ({
          id,
          object: "model",
          created: 0,
          owned_by: "test",
        }));
        return Response.json({ object: "list", data });
      }
      const raw = await req.text();
      const body = JSON.parse(raw);
      const index = requests.length;
      const progress: Progress = { sent: 0, hanging: false, ended: false };
      requests.push({ body, raw, headers: req.headers, progress, at: Date.now() });
      const prompt = Math.ceil(canonical(body).length / BYTES_PER_TOKEN);
      if (opts.window !== undefined && prompt > opts.window) {
        refused.push(index);
        const message =
          `This model's maximum context length is ${opts.window} tokens. However, your messages ` +
          `resulted in ${prompt} tokens. Please reduce the length of the messages.`;
        return Response.json({
          error: { message, type: "invalid_request_error", code: "context_length_exceeded" },
        }, { status: 400 });
      }
      const served = index - refused.length;
      const step = typeof script === "function" ? script(served, body) : script[served];
      if (!step) return Response.json({ error: { message: "script exhausted" } }, { status: 500 });
      if ("hang" in step) {
        if (step.text) return partialThenHang(step.text);
        await new Promise((r) =>
          AbortSignal.any([req.signal, controller.signal]).addEventListener("abort", r)
        );
        return new Response(null, { status: 499 });
      }
      if ("raw" in step) return new Response(step.raw, { headers: { "content-type": "text/event-stream" } });
      if ("status" in step) {
        return Response.json({ error: { message: step.message, type: "test_error" } }, {
          status: step.status,
          headers: step.headers,
        });
      }
      const usage = cache.usage(body, completionOf(step));
      requests[index].usage = usage;
      if (step.fault) {
        return faultyResponse(sseEvents(step, usage), {
          fault: step.fault,
          progress,
          closing: controller.signal,
        });
      }
      const events = sseEvents(step, usage);
      Object.assign(progress, { sent: events.length, ended: true });
      return new Response(events.join(""), { headers: { "content-type": "text/event-stream" } });
    },
  );
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    refused,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}
