// The provider-like cache of the test LLM server: prompt tokens are bytes / 4 of the tools JSON then each
// message's JSON; cached tokens are the longest common prefix with any earlier request, in 128-token steps,
// nothing below 1,024.
import { canonical, PromptCache, rebilledTokens } from "./llm_cache.ts";
import { startLlmServer } from "./llm_server.ts";
import { assert, assertEquals } from "../helpers.ts";

const tool = (name: string, size = 400) => ({
  type: "function",
  function: { name, description: "d".repeat(size), parameters: { type: "object" } },
});
const msg = (role: string, text: string) => ({ role, content: text });
const bytes = (body: Record<string, unknown>) => canonical(body).length;

Deno.test("prompt tokens are bytes / 4 of the tools JSON then each message's JSON", () => {
  const body = { model: "m", tools: [tool("a")], messages: [msg("system", "s"), msg("user", "é")] };
  const text = JSON.stringify(body.tools) + JSON.stringify(body.messages[0]) +
    JSON.stringify(body.messages[1]);
  assertEquals(new TextDecoder().decode(canonical(body)), text);
  const usage = new PromptCache().usage(body, "four");
  assertEquals(usage.prompt_tokens, Math.floor(new TextEncoder().encode(text).length / 4));
  assertEquals(usage.completion_tokens, 1);
  assertEquals(usage.prompt_tokens_details.cached_tokens, 0, "nothing was seen before");
});

Deno.test("cached tokens: the longest common prefix with any earlier request, in 128-token steps, 0 below 1,024", () => {
  const cache = new PromptCache();
  const tools = Array.from({ length: 12 }, (_, i) => tool(`t${i}`));
  const a = { model: "m", tools, messages: [msg("system", "s"), msg("user", "question one")] };
  cache.usage(a);
  const aTokens = Math.floor(bytes(a) / 4);
  assert(aTokens > 1024 + 128, `a is long enough (${aTokens})`);

  const extended = { ...a, messages: [...a.messages, msg("assistant", "answer"), msg("user", "next")] };
  const u = cache.usage(extended);
  assertEquals(
    u.prompt_tokens_details.cached_tokens,
    aTokens - (aTokens % 128),
    "a's whole prefix, rounded down",
  );

  const otherTool = { ...a, tools: [tool("zz"), ...tools.slice(1)] };
  assertEquals(cache.usage(otherTool).prompt_tokens_details.cached_tokens, 0, "the first tool differs");

  const short = { model: "m", tools: tools.slice(0, 3), messages: [msg("user", "x")] };
  assert(Math.floor(bytes(short) / 4) < 1024);
  assertEquals(
    cache.usage(short).prompt_tokens_details.cached_tokens,
    0,
    "a common prefix under 1,024 tokens",
  );

  const back = { ...a, messages: [...a.messages, msg("user", "a different follow-up")] };
  assertEquals(
    cache.usage(back).prompt_tokens_details.cached_tokens,
    aTokens - (aTokens % 128),
    "matched against an earlier request, not just the last one",
  );
  assertEquals(cache.usage({ ...a, model: "other" }).prompt_tokens_details.cached_tokens, 0, "per model");
});

Deno.test("entries unused for longer than the TTL are gone; rebilledTokens measures what a change sends again", () => {
  let now = 0;
  const cache = new PromptCache({ ttlMs: 1000, now: () => now });
  const tools = Array.from({ length: 12 }, (_, i) => tool(`t${i}`));
  const a = { model: "m", tools, messages: [msg("user", "q")] };
  cache.usage(a);
  now = 900;
  assert(cache.usage(a).prompt_tokens_details.cached_tokens > 0, "within the TTL");
  now = 2500;
  assertEquals(cache.usage(a).prompt_tokens_details.cached_tokens, 0, "the TTL passed");

  const appended = { ...a, messages: [...a.messages, msg("user", "more")] };
  assertEquals(rebilledTokens(a, appended), 0, "an appended message bills nothing again");
  const changed = { ...a, tools: [...tools.slice(0, 11), tool("u11")] };
  const before = JSON.stringify(a.tools) + JSON.stringify(a.messages[0]);
  const at = before.indexOf('"name":"t11"') + '"name":"'.length;
  assertEquals(
    rebilledTokens(a, changed),
    Math.floor(before.length / 4) - Math.floor(at / 4),
    "everything from the changed name on is billed again",
  );
});

Deno.test("the server answers each streamed request with the cache's usage and records it", async () => {
  const server = startLlmServer([{ text: "one" }, { text: "two" }]);
  try {
    const tools = Array.from({ length: 12 }, (_, i) => tool(`t${i}`));
    const post = async (messages: unknown[]) => {
      const res = await fetch(`${server.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages, tools, stream: true }),
      });
      const events = (await res.text()).split("\n\n").filter((e) => e.startsWith("data: {"));
      return JSON.parse(events.at(-1)!.slice(6)).usage;
    };
    const first = await post([msg("user", "hi")]);
    const second = await post([msg("user", "hi"), msg("assistant", "one"), msg("user", "again")]);
    assertEquals(first, server.requests[0].usage);
    assertEquals(second, server.requests[1].usage);
    assertEquals(first.prompt_tokens_details.cached_tokens, 0);
    assertEquals(
      second.prompt_tokens_details.cached_tokens,
      first.prompt_tokens - (first.prompt_tokens % 128),
    );
  } finally {
    await server.close();
  }
});
