// Reasoning carried across requests: kept in the session, sent back to the provider and model that produced it
// in the form it requires (DeepSeek's reasoning_content, OpenRouter's reasoning_details, Gemini's extra_content),
// never to another provider or model; reasoning effort from config, flags and /effort.
import { join } from "node:path";
import {
  chatBody,
  type ChatRequest,
  LlmClient,
  type Message,
  openConversation,
  resolveProvider,
} from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { recordingMeta, startReplayServer, streamsDir } from "../../support/provider_streams.ts";
import { assertValidSession } from "../../support/session_check.ts";
import { assert, assertEquals, testApp } from "../../helpers.ts";

const DIR = streamsDir();
const META = recordingMeta(DIR);

type Sent = { role: string; tool_calls?: Record<string, unknown>[]; [key: string]: unknown };
const assistantWithCalls = (body: Record<string, unknown>) =>
  (body.messages as Sent[]).find((m) => m.role === "assistant" && m.tool_calls)!;

Deno.test("DeepSeek: reasoning_content goes back on the tool-call turn in every later request, after a resume too, and never to another model", async () => {
  const server = startReplayServer(
    DIR,
    ["deepseek_tool", "deepseek_text", "deepseek_text", "deepseek_text"],
    META,
  );
  await using t = await testApp({
    providers: { deepseek: { base_url: server.url, api_key: "k" } },
    model: "deepseek-reasoner",
    approval: { mode: "auto" },
  });
  try {
    await Deno.writeTextFile(join(t.ws, "weather.txt"), "40 C");
    const signal = new AbortController().signal;
    const first = openConversation(t.app, {});
    await first.agent.run("weather?", signal);
    const id = first.agent.session.meta.id;
    first.close();
    const resumed = openConversation(t.app, { resume: id });
    await resumed.agent.run("and tomorrow?", signal);
    const sent = [1, 2].map((i) => assistantWithCalls(server.requests[i].body).reasoning_content);
    assert(typeof sent[0] === "string" && sent[0].length > 100, "the recorded reasoning went back");
    assertEquals(sent[1], sent[0], "the same bytes in the next turn, after a resume");
    const answers = (server.requests[2].body.messages as Sent[]).filter((m) =>
      m.role === "assistant" && !m.tool_calls
    );
    assertEquals(answers.map((m) => "reasoning_content" in m), [false], "not on a turn without tool calls");
    resumed.llm.overrides.model = "deepseek-chat";
    await resumed.agent.run("switch", signal);
    assertEquals(
      "reasoning_content" in assistantWithCalls(server.requests[3].body),
      false,
      "not to another model",
    );
    assertValidSession(Deno.readTextFileSync(resumed.agent.session.file));
  } finally {
    await server.close();
  }
});

Deno.test("OpenRouter + Gemini: reasoning_details go back unchanged with the tool call, not to another provider", async () => {
  const server = startReplayServer(DIR, [
    "openrouter-gemini_tool",
    "openrouter-gemini_tool_answer",
    "openai_text",
  ], META);
  await using t = await testApp({
    providers: {
      openrouter: { base_url: server.url, api_key: "k" },
      other: { base_url: server.url, api_key: "k" },
    },
    provider: "openrouter",
    model: "google/gemini-3.1-flash-lite-preview",
    approval: { mode: "auto" },
  });
  try {
    await Deno.writeTextFile(join(t.ws, "weather.txt"), "40 C");
    const convo = openConversation(t.app, {});
    await convo.agent.run("weather?", new AbortController().signal);
    const back = assistantWithCalls(server.requests[1].body);
    assertEquals(back.reasoning_details, [{
      type: "reasoning.encrypted",
      data: "EjQKMgEMOdbHA6W7+LCdrmzmriRlesl2Lp+9caTqsf55osFVUk/b525SSde4BBihgx7+c7aR",
      format: "google-gemini-v1",
      id: "tool_weather_nNBvDVuJXrZZDwEjuOoj",
      index: 0,
    }], "the signature as recorded, for the call of the same id");
    assertEquals((back.tool_calls as { id: string }[])[0].id, "tool_weather_nNBvDVuJXrZZDwEjuOoj");
    convo.llm.overrides.provider = "other";
    await convo.agent.run("elsewhere", new AbortController().signal);
    assertEquals("reasoning_details" in assistantWithCalls(server.requests[2].body), false);
  } finally {
    await server.close();
  }
});

/** A Gemini-endpoint stream: the tool call carries `extra_content.google.thought_signature` (no recording). */
function geminiCall(signature: string): string {
  const call = {
    id: "function-call-1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"weather.txt"}' },
    extra_content: { google: { thought_signature: signature } },
  };
  const chunk = {
    choices: [{ index: 0, delta: { role: "assistant", tool_calls: [call] }, finish_reason: "tool_calls" }],
  };
  return `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
}

Deno.test("Gemini's OpenAI endpoint: the tool call's extra_content goes back unchanged", async () => {
  const server = startLlmServer([{ raw: geminiCall("sig-abc") }, { text: "40 C it is" }]);
  await using t = await testApp({
    providers: { gemini: { base_url: server.url, api_key: "k" } },
    model: "gemini-3-pro-preview",
    approval: { mode: "auto" },
  });
  try {
    await Deno.writeTextFile(join(t.ws, "weather.txt"), "40 C");
    const r = await openConversation(t.app, {}).agent.run("weather?", new AbortController().signal);
    assertEquals(r.toolCalls, [{ name: "read_file", ok: true }]);
    assertEquals(
      server.requests[1].body.prompt_cache_key,
      undefined,
      "the gemini preset sends no prompt_cache_key",
    );
    const call = (assistantWithCalls(server.requests[1].body).tool_calls as Record<string, unknown>[])[0];
    assertEquals(call, {
      id: "function-call-1",
      type: "function",
      function: { name: "read_file", arguments: '{"path":"weather.txt"}' },
      extra_content: { google: { thought_signature: "sig-abc" } },
    });
  } finally {
    await server.close();
  }
});

Deno.test("stored reasoning of another provider never reaches a strict server (Mistral rejects unknown fields)", () => {
  const messages: Message[] = [
    { role: "user", content: "q" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "x", arguments: "{}" } }],
      _reasoning: {
        provider: "deepseek",
        model: "deepseek-reasoner",
        api: "chat",
        field: "reasoning_content",
        text: "hmm",
        callExtras: { c1: { google: { thought_signature: "s" } } },
      },
    },
    { role: "tool", tool_call_id: "c1", content: "r" },
  ];
  const req: ChatRequest = { messages, tools: [], cacheKey: "s1" };
  const env = { get: (k: string) => (k === "MISTRAL_API_KEY" ? "mk-123456789" : undefined) };
  const mistral = chatBody(resolveProvider({ provider: "mistral" }, { model: "mistral-large" }, env), req);
  assertEquals(mistral.messages, [
    { role: "user", content: "q" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "x", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "c1", content: "r" },
  ]);
  assertEquals("prompt_cache_key" in mistral, false, "the mistral preset sends no prompt_cache_key");
  const deepseek = resolveProvider({ providers: { deepseek: { api_key: "k" } } }, {
    model: "deepseek-reasoner",
  }, env);
  const back = chatBody(deepseek, req).messages as Sent[];
  assertEquals([back[1].reasoning_content, back[1].tool_calls![0].extra_content], ["hmm", {
    google: { thought_signature: "s" },
  }]);
});

Deno.test("reasoning effort: --effort beats models.<name>, which beats providers.<name>; OpenRouter takes it as reasoning.effort", async () => {
  const env = { get: () => undefined };
  const config = {
    providers: { a: { base_url: "http://a/v1", reasoning_effort: "low" as const } },
    models: { big: { reasoning_effort: "high" as const } },
  };
  assertEquals(resolveProvider(config, { model: "small" }, env).effort, "low");
  assertEquals(resolveProvider(config, { model: "big" }, env).effort, "high");
  assertEquals(resolveProvider(config, { model: "big", effort: "minimal" }, env).effort, "minimal");
  const req: ChatRequest = { messages: [{ role: "user", content: "q" }], tools: [] };
  assertEquals(chatBody(resolveProvider(config, { model: "big" }, env), req).reasoning_effort, "high");
  const or = resolveProvider({ providers: { openrouter: { api_key: "k" } } }, {
    model: "x/y",
    effort: "medium",
  }, env);
  const body = chatBody(or, req);
  assertEquals([body.reasoning, body.reasoning_effort], [{ effort: "medium" }, undefined]);
  const server = startLlmServer([{ text: "a" }, { text: "b" }]);
  try {
    const llm = new LlmClient({ providers: { a: { base_url: server.url, api_key: "k" } }, model: "m" }, {
      effort: "xhigh",
    });
    for await (const _ of llm.chat(req, new AbortController().signal));
    delete llm.overrides.effort;
    for await (const _ of llm.chat(req, new AbortController().signal));
    assertEquals(server.requests.map((r) => r.body.reasoning_effort), ["xhigh", undefined]);
  } finally {
    await server.close();
  }
});
