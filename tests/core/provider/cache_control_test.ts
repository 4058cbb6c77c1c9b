// Anthropic cache breakpoints behind a gateway: at most 4 `cache_control` marks (the last tool, the system prompt,
// the instructions, the newest message), each request's marked prefix a byte prefix of the next request.
import { join } from "node:path";
import { chatBody, emptyUsage, openConversation, resolveProvider } from "../../../core/mod.ts";
import { cacheReport } from "../../../core/cli/commands/cache.ts";
import { usageText } from "../../../core/cli/commands/usage.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import { type CacheUsage } from "../../support/llm_cache.ts";
import { sse, startLlmServer, type Step } from "../../support/llm_server.ts";
import { assert, assertEquals, assertMatch, testApp } from "../../helpers.ts";

const MARK = ',"cache_control":{"type":"ephemeral"}';

/** The bytes a provider caches over, in its order: the tools, then each message. */
const cached = (body: Record<string, unknown>) =>
  JSON.stringify(body.tools ?? []) + (body.messages as unknown[]).map((m) => JSON.stringify(m)).join("");

const marks = (text: string) => text.split(MARK).length - 1;

async function session(opts: { model?: string; cacheControl?: false }, script: Step[]) {
  const server = startLlmServer(script);
  const entry = { base_url: server.url, api_key: "k" };
  const t = await testApp({
    providers: { openrouter: opts.cacheControl === false ? { ...entry, cache_control: false } : entry },
    model: opts.model ?? "anthropic/claude-4.5-haiku",
    approval: { mode: "auto" },
  });
  await Deno.writeTextFile(join(t.ws, "AGENTS.md"), "Run the tests before you finish.");
  await Deno.writeTextFile(join(t.ws, "notes.txt"), "some notes");
  const convo = openConversation(t.app, {});
  const signal = new AbortController().signal;
  await convo.agent.run("read the notes", signal);
  await convo.agent.run("and again", signal);
  return {
    server,
    convo,
    async [Symbol.asyncDispose]() {
      await server.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

const read = { toolCalls: [{ name: "read_file", arguments: '{"path":"notes.txt"}' }] };

Deno.test("OpenRouter anthropic/ models get at most 4 breakpoints; each request's marked prefix is a byte prefix of the next", async () => {
  await using t = await session({}, [read, { text: "read it" }, read, read, { text: "twice more" }]);
  const bodies = t.server.requests.map((r) => r.body);
  assertEquals(bodies.length, 5);
  for (const [i, body] of bodies.entries()) {
    const messages = body.messages as {
      role: string;
      content: { type: string; cache_control?: unknown }[];
    }[];
    const tools = body.tools as { cache_control?: unknown }[];
    assertEquals(marks(cached(body)), 4, `request ${i + 1}: tool, system, instructions, newest`);
    assert(tools.at(-1)!.cache_control, "the last tool is marked");
    assertEquals(tools.slice(0, -1).some((x) => x.cache_control), false);
    for (const at of [0, 1, messages.length - 1]) {
      assert(messages[at].content.at(-1)!.cache_control, `request ${i + 1}: message ${at} is marked`);
    }
    assertMatch(JSON.stringify(messages[1].content), /Run the tests before you finish/);
  }
  for (let i = 0; i + 1 < bodies.length; i++) {
    const now = cached(bodies[i]);
    const prefix = now.slice(0, now.lastIndexOf(MARK));
    assert(
      cached(bodies[i + 1]).startsWith(prefix),
      `request ${i + 2} extends request ${i + 1}'s marked prefix`,
    );
    assert(prefix.length > cached(bodies[i]).length / 2, "the marked prefix is most of the request");
  }
});

Deno.test("without cache_control (another model, or cache_control: false) nothing is marked and contents stay strings", async () => {
  for (const config of [{ model: "openai/gpt-4.1" }, { cacheControl: false as const }]) {
    await using t = await session(config, [read, { text: "ok" }, { text: "ok" }]);
    for (const r of t.server.requests) {
      assertEquals(r.raw.includes("cache_control"), false);
      assertEquals(typeof (r.body.messages as { content: unknown }[])[0].content, "string");
    }
  }
});

Deno.test("cache_control: anthropic on any provider; image parts, null contents and tool results marked as providers accept them", () => {
  const choice = resolveProvider({
    providers: { gw: { base_url: "http://gw/v1", cache_control: "anthropic" } },
  }, {
    model: "claude",
  }, { get: () => undefined });
  assertEquals(choice.cacheControl, "anthropic");
  const body = chatBody(choice, {
    messages: [
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:," } }],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "x", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c", content: "result" },
    ],
    tools: [],
  });
  const messages = body.messages as { content: Record<string, unknown>[] | null }[];
  assertEquals(messages[1].content!.at(-1), {
    type: "image_url",
    image_url: { url: "data:," },
    cache_control: { type: "ephemeral" },
  });
  assertEquals(messages[2].content, null, "a null content is left as it is");
  assertEquals(messages[3].content, [{ type: "text", text: "result", cache_control: { type: "ephemeral" } }]);
  assertEquals(marks(JSON.stringify(body)), 3, "no tools: system, the message after it, the newest");
});

Deno.test("cache writes and reads where the provider reports them: /cache and /usage count them", async () => {
  const usage = {
    prompt_tokens: 2000,
    completion_tokens: 10,
    total_tokens: 2010,
    prompt_tokens_details: { cached_tokens: 1500, cache_write_tokens: 400 },
  } as unknown as CacheUsage;
  await using t = await session({}, [{ raw: sse({ text: "one" }, usage) }, {
    raw: sse({ text: "two" }, usage),
  }]);
  const summary = t.convo.agent.cache.summary();
  assertEquals([summary.cached_tokens, summary.cache_write_tokens], [3000, 800]);
  assertMatch(
    cacheReport(summary, t.convo.agent.deferral, makeStyle(false)),
    /cached 3000 · written 800 · hit/,
  );
  const text = usageText(t.convo.agent.session.usage, undefined);
  assertMatch(
    text,
    /^MODEL\s+PROMPT\s+CACHED\s+WRITTEN\s+OUTPUT\s+COST\nanthropic\/claude-4\.5-haiku\s+4000\s+3000\s+800\s+20\s+-/,
  );
  assertEquals(emptyUsage().cache_write_tokens, 0);
});
