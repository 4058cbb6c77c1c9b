// Automatic compaction against a provider that refuses prompts over N tokens: a long task finishes unattended,
// and the only requests that do not extend the previous one are the first after each compaction.
import { join } from "node:path";
import { COMPACT_PROMPT, type Config, openConversation } from "../../../core/mod.ts";
import { canonical, commonPrefix, tokensOf } from "../../support/llm_cache.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { assert, assertEquals, assertMatch, testApp } from "../../helpers.ts";

const CHUNK = Array.from({ length: 40 }, (_, i) => `line ${i}: ${"data ".repeat(10)}`).join("\n");

/** A model that reads chunk files `steps` times, then answers; it summarizes when asked to. */
function task(opts: { steps: number; limit: number }) {
  let done = 0;
  let refused = 0;
  let summaries = 0;
  const script = (_i: number, body: Record<string, unknown>): Step => {
    const tokens = tokensOf(canonical(body).length);
    if (tokens > opts.limit) {
      refused++;
      return { status: 400, message: `This model's maximum context length is ${opts.limit} tokens.` };
    }
    const last = (body.messages as { content: unknown }[]).at(-1)!;
    if (typeof last.content === "string" && last.content.startsWith(COMPACT_PROMPT.slice(0, 40))) {
      summaries++;
      return { text: `Summary ${summaries}: ${done} of ${opts.steps} chunks read so far; keep reading.` };
    }
    if (done >= opts.steps) return { text: `All ${opts.steps} steps done.` };
    done++;
    return {
      toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: `chunk${done % 5}.txt` }) }],
    };
  };
  return { script, refused: () => refused, summaries: () => summaries };
}

/** Requests (as the server saw them) that do not extend the request before them. */
function prefixBreaks(bodies: Record<string, unknown>[]): number {
  let breaks = 0;
  for (let i = 1; i < bodies.length; i++) {
    const before = canonical(bodies[i - 1]);
    if (commonPrefix(before, canonical(bodies[i])) < before.length) breaks++;
  }
  return breaks;
}

async function run(opts: { steps: number; limit: number; window: number }) {
  const model = task(opts);
  const server = startLlmServer(model.script);
  const config: Config = {
    providers: { t: { base_url: server.url, api_key: "k" } },
    model: "m",
    max_steps: opts.steps + 5,
    models: { m: { context_window: opts.window, max_output_tokens: 1024 } },
  };
  const t = await testApp(config);
  for (let i = 0; i < 5; i++) await Deno.writeTextFile(join(t.ws, `chunk${i}.txt`), CHUNK);
  const convo = openConversation(t.app, {});
  const result = await convo.agent.run("Read the chunk files, one per step.", new AbortController().signal);
  const file = Deno.readTextFileSync(convo.agent.session.file);
  const compactions =
    file.split("\n").filter((l) => l.includes('"type":"rewrite","reason":"compaction"')).length;
  return { server, t, convo, result, compactions, model, file };
}

Deno.test("a 60-step task against a provider that refuses over 12,000 tokens finishes unattended; breaks = compactions", async () => {
  const { server, t, convo, result, compactions, model } = await run({
    steps: 60,
    limit: 12_000,
    window: 12_000,
  });
  try {
    assertEquals(result.text, "All 60 steps done.");
    assertEquals(result.toolCalls.length, 60);
    assert(compactions >= 3, `compactions: ${compactions}`);
    assertEquals(model.summaries(), compactions);
    assertEquals(model.refused(), 0, "compaction came before the provider had to refuse");
    const bodies = server.requests.map((q) => q.body);
    assertEquals(
      prefixBreaks(bodies),
      compactions,
      "only the request after each compaction breaks the prefix",
    );
    assertEquals(convo.agent.cache.summary().breaks.length, compactions, "navi's own telemetry agrees");
    for (const body of bodies) assert(tokensOf(canonical(body).length) <= 12_000);
    console.log(
      `60 steps: ${server.requests.length} requests, ${compactions} compactions, ${
        prefixBreaks(bodies)
      } breaks, ` +
        `hit ratio ${convo.agent.cache.summary().hit_ratio}`,
    );
  } finally {
    await server.close();
    await t[Symbol.asyncDispose]();
  }
});

Deno.test("a provider's context-length 400 triggers a compaction and a retry; later ones come in time", async () => {
  const { server, t, result, compactions, model, file } = await run({
    steps: 30,
    limit: 8_000,
    window: 1_000_000,
  });
  try {
    assertEquals(result.text, "All 30 steps done.");
    assert(compactions >= 2, `compactions: ${compactions}`);
    assertEquals(model.refused(), 1, "after one refusal navi keeps below that size and compacts in time");
    assertMatch(file, /"type":"rewrite","reason":"compaction"/);
    console.log(
      `30 steps, window unknown to navi: ${server.requests.length} requests, ${model.refused()} refused, ` +
        `${compactions} compactions, ${prefixBreaks(server.requests.map((q) => q.body))} breaks`,
    );
  } finally {
    await server.close();
    await t[Symbol.asyncDispose]();
  }
});

Deno.test("a resumed session continues from the compacted conversation, the old messages kept in the file", async () => {
  const { server, t, convo, file } = await run({ steps: 20, limit: 8_000, window: 8_000 });
  try {
    const id = convo.agent.session.meta.id;
    const view = convo.agent.session.messages;
    convo.close();
    const resumed = openConversation(t.app, { resume: id });
    assertEquals(resumed.agent.session.messages, view);
    assertMatch(file, /"content":"Read the chunk files, one per step\."/);
    assert(view.some((m) => String(m.content).startsWith("<conversation-summary>")));
    resumed.close();
  } finally {
    await server.close();
    await t[Symbol.asyncDispose]();
  }
});
