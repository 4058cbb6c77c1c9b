// navi's own cache telemetry: which part of a request first differs from the previous request, and the ratio.
import { CacheStats, type Message, type OpenAITool } from "../../../core/mod.ts";
import { assertEquals } from "../../helpers.ts";

const tool = (name: string, description = "d"): OpenAITool => ({
  type: "function",
  function: { name, description, parameters: { type: "object" } },
});
const msg = (role: Message["role"], content: string): Message => ({ role, content });

Deno.test("a request that extends the previous one is no break; otherwise the first changed part is named", () => {
  const stats = new CacheStats({ label: (name) => (name === "b" ? "list_changed from docs" : "") });
  const tools = [tool("a"), tool("b")];
  const messages = [msg("system", "s"), msg("user", "u1")];
  assertEquals(stats.observe({ tools, messages }), undefined, "the first request");
  messages.push(msg("assistant", "a1"), msg("user", "u2"));
  assertEquals(stats.observe({ tools, messages }), undefined, "appended messages");
  assertEquals(
    stats.observe({ tools: [tool("a"), tool("b", "new")], messages }),
    "tools[1] (list_changed from docs)",
  );
  assertEquals(stats.observe({ tools: [tool("a")], messages }), "tools[1] (b removed)");
  assertEquals(
    stats.observe({ tools: [tool("a")], messages: [msg("system", "changed"), ...messages.slice(1)] }),
    "system prompt",
  );
  assertEquals(
    stats.observe({
      tools: [tool("a")],
      messages: [msg("system", "changed"), messages[1], msg("user", "x")],
    }),
    "messages[2]",
  );
  assertEquals(
    stats.observe({ tools: [tool("a")], messages: [msg("system", "changed")] }),
    "messages[1]",
    "dropped",
  );
});

Deno.test("the summary adds up the provider's usage per request and lists the breaks by request number", () => {
  const stats = new CacheStats({
    history: [{ at: "2026-01-01T00:00:00.000Z", messages: 2, prompt_tokens: 2000, cached_tokens: 0 }],
  });
  stats.record({ at: "2026-01-01T00:00:05.000Z", messages: 4, prompt_tokens: 3000, cached_tokens: 1920 });
  stats.record({
    at: "2026-01-01T00:00:09.000Z",
    messages: 6,
    prompt_tokens: 3000,
    cached_tokens: 0,
    cache_write_tokens: 512,
    break: "tools[3] (plugin x.ts)",
  });
  assertEquals(stats.summary(), {
    requests: 3,
    prompt_tokens: 8000,
    cached_tokens: 1920,
    cache_write_tokens: 512,
    hit_ratio: 0.24,
    breaks: [{ request: 3, at: "tools[3] (plugin x.ts)" }],
  });
  assertEquals(stats.lastRequestAt(), Date.parse("2026-01-01T00:00:09.000Z"));
  assertEquals(new CacheStats().summary().hit_ratio, null);
});
