// Every recorded provider stream of ../shared/provider_streams/ replayed through navi: the SSE bytes as the
// provider sent them (its Content-Type, split across reads), the recorded tool calls run by navi's own tools,
// usage counted once per response and checked against the provider's own figures, reasoning sent back to the
// provider that produced it in the form it requires.
import { join } from "node:path";
import { addUsage, emptyUsage, openConversation, type Usage } from "../../../core/mod.ts";
import { assertValidSession } from "../../support/session_check.ts";
import {
  recordedEvents,
  recordingMeta,
  recordingNames,
  replayCases,
  type ReplayRequest,
  startReplayServer,
  streamsDir,
} from "../../support/provider_streams.ts";
import { assert, assertEquals, testApp } from "../../helpers.ts";

const DIR = streamsDir();
const META = recordingMeta(DIR);
const CASES = replayCases(DIR);

/** The files the recorded tool calls read (run.sh of the recordings writes the same results). */
const FILES: Record<string, string> = {
  "weather.txt": "40 C",
  "add.txt": "5",
  "multiply.txt": "6",
  "a.txt": "alpha",
};

type Delta = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning_details?: Record<string, unknown>[] | null;
  provider_metadata?: { google?: { usageMetadata?: Record<string, number> } };
};

/** What a recording says, read by the test itself from the file: text, reasoning, the provider's usage. */
function recorded(name: string) {
  const events = recordedEvents(DIR, name);
  const deltas = events.flatMap((e) =>
    (e.choices as { delta?: Delta }[] | undefined ?? []).map((c) => c.delta ?? {})
  );
  const usages = events.map((e) => e.usage).filter((u) => u && typeof u === "object") as Record<
    string,
    unknown
  >[];
  const google = deltas.map((d) => d.provider_metadata?.google?.usageMetadata).filter(Boolean).at(-1);
  return {
    text: deltas.map((d) => (typeof d.content === "string" ? d.content : "")).join(""),
    reasoningContent: deltas.some((d) => typeof d.reasoning_content === "string")
      ? deltas.map((d) => d.reasoning_content ?? "").join("")
      : undefined,
    details: deltas.flatMap((d) => d.reasoning_details ?? []),
    usageChunks: usages.length,
    usage: expectedUsage(usages.at(-1), google),
  };
}

/**
 * The provider's own figures for one response: its last usage object (Perplexity's running totals end at the
 * full figure; Groq's repeated object is the same one), the total as the provider counts it (Google's own
 * `totalTokenCount` where Vercel's gateway passes it through), the completion as the total minus the prompt.
 */
function expectedUsage(u: Record<string, unknown> | undefined, google?: Record<string, number>): Usage {
  const n = (v: unknown) => (typeof v === "number" ? v : undefined);
  const pd = (u?.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cd = (u?.completion_tokens_details ?? {}) as Record<string, unknown>;
  const prompt = n(u?.prompt_tokens) ?? 0;
  const total = google?.totalTokenCount ?? n(u?.total_tokens) ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: total - prompt,
    total_tokens: total,
    cached_tokens: n(pd.cached_tokens) ?? n(u?.prompt_cache_hit_tokens) ?? 0,
    reasoning_tokens: n(cd.reasoning_tokens) ?? (total - prompt - (n(u?.completion_tokens) ?? 0)),
    cache_write_tokens: n(pd.cache_write_tokens) ?? n(u?.cache_creation_input_tokens) ?? 0,
  };
}

const sum = (list: Usage[]): Usage => list.reduce((a, u) => addUsage(a, u), emptyUsage());

type Sent = {
  role: string;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: string;
  [k: string]: unknown;
};

function checkReasoningSentBack(tool: ReturnType<typeof recorded>, assistant: Sent, name: string): void {
  if (tool.details.length) {
    const indexes = tool.details.map((d) => d.index ?? null);
    assertEquals(new Set(indexes).size, indexes.length, `${name}: one detail per index (no joining needed)`);
    assertEquals(assistant.reasoning_details, tool.details, `${name}: reasoning_details sent back unchanged`);
    assertEquals(assistant.reasoning_content, undefined);
  } else if (tool.reasoningContent !== undefined) {
    assertEquals(assistant.reasoning_content, tool.reasoningContent, `${name}: reasoning_content sent back`);
  } else {
    for (const key of ["reasoning_content", "reasoning", "reasoning_details"]) {
      assertEquals(assistant[key], undefined, `${name}: no ${key} where the provider sent no reasoning`);
    }
  }
}

function checkToolRound(
  c: (typeof CASES)[number],
  requests: ReplayRequest[],
  result: { toolCalls: unknown },
) {
  const meta = META[c.name];
  const names = meta.tool_calls_recorded.map((t) => (meta.edited ? "read_file" : t.name));
  assertEquals(result.toolCalls, names.map((name) => ({ name, ok: true })), `${c.name}: navi's tools ran`);
  const second = requests[1].body.messages as Sent[];
  const at = second.findIndex((m) => m.role === "assistant");
  const assistant = second[at];
  const tool = recorded(c.name);
  assertEquals(assistant.content, tool.text || null, `${c.name}: the text before the calls`);
  const calls = assistant.tool_calls as { id: string; function: { name: string; arguments: string } }[];
  assertEquals(calls.map((t) => t.id), meta.tool_calls_recorded.map((t) => t.id), `${c.name}: recorded ids`);
  const results = second.slice(at + 1);
  assertEquals(results.map((m) => m.tool_call_id), calls.map((t) => t.id), `${c.name}: one result per call`);
  calls.forEach((call, i) => {
    const args = JSON.parse(call.function.arguments);
    const expected = call.function.name === "glob" ? "weather.txt" : FILES[args.path];
    assert(
      String(results[i].content).includes(expected),
      `${c.name}: ${call.function.name} result has ${expected}`,
    );
  });
  checkReasoningSentBack(tool, assistant, c.name);
}

Deno.test("every recording is in a replay case, and every case names recordings that exist", () => {
  const used = new Set(CASES.flatMap((c) => c.files));
  assertEquals(recordingNames(DIR).filter((n) => !used.has(n)), [], "recordings no case replays");
  assertEquals(Object.keys(META).sort(), recordingNames(DIR), "meta.json describes every recording");
  assertEquals(CASES.length, 39);
});

for (const c of CASES) {
  Deno.test(`replay ${c.name}${c.borrowed ? ` (answered by ${c.borrowed})` : ""}`, async () => {
    const server = startReplayServer(DIR, c.files, META);
    const provider = c.name.split("_")[0];
    await using t = await testApp({
      providers: { [provider]: { base_url: server.url, api_key: "k" } },
      model: "m",
      approval: { mode: "auto" },
    });
    try {
      for (const [file, text] of Object.entries(FILES)) await Deno.writeTextFile(join(t.ws, file), text);
      const convo = openConversation(t.app, {});
      const result = await convo.agent.run("replay", new AbortController().signal);
      assertEquals(server.requests.length, c.files.length, "one request per recording");
      const expected = c.files.map(recorded);
      assertEquals(result.text, expected.at(-1)!.text, "the answer is the recorded text");
      assertEquals(result.usage, sum(expected.map((e) => e.usage)), "usage once per response, as recorded");
      const session = Deno.readTextFileSync(convo.agent.session.file);
      const requests = session.trim().split("\n").map((l) => JSON.parse(l)).filter((r) =>
        r.type === "request"
      );
      assertEquals(
        requests.map((r) => [r.prompt_tokens, r.cached_tokens]),
        expected.map((e) => [e.usage.prompt_tokens, e.usage.cached_tokens]),
        "each request's prompt and cached tokens",
      );
      if (c.files.length > 1) checkToolRound(c, server.requests, result);
      for (const r of server.requests) {
        for (const m of r.body.messages as Sent[]) {
          assert(Object.keys(m).every((k) => !k.startsWith("_")), "navi's own keys are never sent");
        }
      }
      assertValidSession(session);
    } finally {
      await server.close();
    }
  });
}

Deno.test("the recordings include usage sent twice (Groq, Hugging Face) and running totals (Perplexity)", () => {
  for (const name of ["groq_tool", "huggingface_text", "perplexity_text"]) {
    const r = recorded(name);
    assert(r.usageChunks > 1, `${name} carries usage on more than one chunk`);
  }
});
