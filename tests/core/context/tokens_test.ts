// Token estimates against what a provider counts: within ±10% on fixtures, and calibrated by the provider's
// own count when it tokenizes differently.
import { join } from "node:path";
import { type Config, openConversation, TokenEstimator } from "../../../core/mod.ts";
import { type CacheableBody, type CacheUsage, PromptCache } from "../../support/llm_cache.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { assert, assertEquals, ROOT, testApp } from "../../helpers.ts";

const FIXTURES: Record<string, string> = {
  prose: "The quick brown fox jumps over the lazy dog. ".repeat(200),
  code: Deno.readTextFileSync(join(ROOT, "core", "agent", "agent.ts")),
  unicode: "navi は端末で動くコーディングエージェントです。✨ Ünïcödé façade — naïve café. ".repeat(60),
};

/** A provider whose tokenizer counts `factor` times what bytes / 4 gives (a real server, scaled usage). */
class ScaledCache extends PromptCache {
  constructor(readonly factor: number) {
    super();
  }
  override usage(body: CacheableBody, completion = ""): CacheUsage {
    const u = super.usage(body, completion);
    const prompt = Math.round(u.prompt_tokens * this.factor);
    return { ...u, prompt_tokens: prompt, total_tokens: prompt + u.completion_tokens };
  }
}

async function converse(fixture: string, cache?: PromptCache) {
  const server = startLlmServer(
    (i) =>
      i === 0
        ? { toolCalls: [{ name: "read_file", arguments: '{"path":"fixture.txt"}' }] }
        : { text: `That file says: ${fixture.slice(0, 300)}` },
    { cache },
  );
  const config: Config = { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" };
  const t = await testApp(config);
  await Deno.writeTextFile(join(t.ws, "fixture.txt"), fixture);
  const { agent } = openConversation(t.app, {});
  const estimates: number[] = [];
  const calibrated: number[] = [];
  const original = agent.keeper.tokens.calibrate.bind(agent.keeper.tokens);
  agent.keeper.tokens.calibrate = (raw, reported) => {
    estimates.push(raw);
    calibrated.push(Math.ceil(raw * agent.keeper.tokens.ratio));
    original(raw, reported);
  };
  await agent.run("Read fixture.txt and tell me about it.", new AbortController().signal);
  const reported = server.requests.map((q) => q.usage!.prompt_tokens);
  await server.close();
  await t[Symbol.asyncDispose]();
  return { estimates, calibrated, reported };
}

for (const [name, fixture] of Object.entries(FIXTURES)) {
  Deno.test(`the estimate is within ±10% of the provider's count: ${name}`, async () => {
    const { estimates, reported } = await converse(fixture);
    assertEquals(estimates.length, 2);
    estimates.forEach((e, i) => {
      const off = Math.abs(e - reported[i]) / reported[i];
      assert(
        off <= 0.1,
        `request ${i + 1}: estimated ${e}, counted ${reported[i]} (${(off * 100).toFixed(1)}%)`,
      );
    });
  });
}

Deno.test("a provider that counts 1.6x the bytes / 4: the second request's estimate is calibrated to within 10%", async () => {
  const { estimates, calibrated, reported } = await converse(FIXTURES.unicode, new ScaledCache(1.6));
  assert(
    Math.abs(estimates[0] - reported[0]) / reported[0] > 0.3,
    "uncalibrated, the first estimate is far off",
  );
  const off = Math.abs(calibrated[1] - reported[1]) / reported[1];
  assert(off <= 0.1, `calibrated ${calibrated[1]}, counted ${reported[1]} (${(off * 100).toFixed(1)}%)`);
});

Deno.test("the estimator's parts: system prompt, instructions, tools by source, messages", () => {
  const tokens = new TokenEstimator((v) => new TextEncoder().encode(JSON.stringify(v)).length);
  const tool = (name: string) => ({
    type: "function" as const,
    function: { name, description: "- x", parameters: {} },
  });
  const parts = tokens.parts(
    {
      tools: [tool("read_file"), tool("mcp__docs__search"), tool("call_tool")],
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "<project-instructions>\nrules\n</project-instructions>" },
        { role: "user", content: "hi" },
      ],
    },
    (name) =>
      name === "read_file"
        ? { kind: "builtin", origin: "navi" }
        : name.startsWith("mcp__")
        ? { kind: "mcp", origin: "docs" }
        : undefined,
  );
  assertEquals(parts.map((p) => p.part), [
    "system prompt",
    "project instructions",
    "tools: built-in (1)",
    "tools: MCP server docs (1)",
    "tools: navi (call_tool, find_tools) (1)",
    "messages (1)",
  ]);
  assertEquals(parts.reduce((n, p) => n + p.tokens, 0) > 0, true);
});
