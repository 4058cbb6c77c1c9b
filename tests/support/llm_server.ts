/** A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 for tests. */

export type Step =
  | { text: string }
  | { toolCalls: { name: string; arguments: string; id?: string }[]; text?: string }
  | { status: number; message: string; headers?: Record<string, string> }
  | { hang: true }
  | { raw: string };

export interface Recorded {
  body: Record<string, unknown>;
  raw: string;
  headers: Headers;
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

/** Render one scripted step as SSE text. */
export function sse(step: Step): string {
  let body = chunk({ role: "assistant", content: "" });
  if ("text" in step && step.text) { for (const p of pieces(step.text, 3)) body += chunk({ content: p }); }
  if ("toolCalls" in step) {
    step.toolCalls.forEach((call, index) => {
      body += chunk({
        tool_calls: [{
          index,
          id: call.id ?? `call_${index}_${call.name}`,
          type: "function",
          function: { name: call.name, arguments: "" },
        }],
      });
      for (const p of pieces(call.arguments, 3)) {
        body += chunk({ tool_calls: [{ index, function: { arguments: p } }] });
      }
    });
  }
  body += chunk({}, "toolCalls" in step ? "tool_calls" : "stop");
  body += `data: ${
    JSON.stringify({
      id: "chatcmpl-test",
      object: "chat.completion.chunk",
      created: 0,
      model: "test-model",
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 8 },
      },
    })
  }\n\n`;
  return body + "data: [DONE]\n\n";
}

/** Start a server that answers requests with `script` in order (or `script(requestIndex, body)`). */
export function startLlmServer(script: Step[] | ((i: number, body: Record<string, unknown>) => Step)) {
  const requests: Recorded[] = [];
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      const raw = await req.text();
      const body = JSON.parse(raw);
      const index = requests.length;
      requests.push({ body, raw, headers: req.headers });
      const step = typeof script === "function" ? script(index, body) : script[index];
      if (!step) return Response.json({ error: { message: "script exhausted" } }, { status: 500 });
      if ("hang" in step) {
        await new Promise((r) => req.signal.addEventListener("abort", r));
        return new Response(null, { status: 499 });
      }
      if ("raw" in step) return new Response(step.raw, { headers: { "content-type": "text/event-stream" } });
      if ("status" in step) {
        return Response.json({ error: { message: step.message, type: "test_error" } }, {
          status: step.status,
          headers: step.headers,
        });
      }
      return new Response(sse(step), { headers: { "content-type": "text/event-stream" } });
    },
  );
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}
