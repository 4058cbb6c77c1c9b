import { costOf, emptyUsage, parseConfig, sessionCost } from "../../../core/mod.ts";
import { sessionUsageText, subagentUsage, usageJson, usageText } from "../../../core/cli/commands/usage.ts";
import { assertEquals, assertThrows } from "../../helpers.ts";

const u = (prompt: number, cached: number, out: number) => ({
  ...emptyUsage(),
  prompt_tokens: prompt,
  cached_tokens: cached,
  completion_tokens: out,
  total_tokens: prompt + out,
});

Deno.test("cost: cached prompt tokens at their own price, a model without a price makes the total partial", () => {
  const prices = { big: { input: 2, cached_input: 0.5, output: 8 } };
  assertEquals(costOf(u(1_000_000, 400_000, 100_000), prices.big), 0.6 * 2 + 0.4 * 0.5 + 0.1 * 8);
  assertEquals(costOf(u(10, 0, 10), undefined), undefined);
  assertEquals(sessionCost({ big: u(1_000_000, 0, 0), small: u(5, 0, 5) }, prices), {
    usd: 2,
    partial: true,
  });
  assertEquals(sessionCost({ small: u(5, 0, 5) }, prices), undefined);
  assertEquals(usageJson({ big: u(1_000_000, 0, 0) }, prices), { ...u(1_000_000, 0, 0), cost_usd: 2 });
  assertEquals(
    usageText({ big: u(1000, 800, 50) }, prices),
    "MODEL  PROMPT  CACHED  OUTPUT  COST\nbig    1000    800     50      $0.0012",
  );
});

Deno.test("config.json prices are validated", () => {
  const cfg = parseConfig(
    '{"prices": {"gpt-4.1": {"input": 2, "cached_input": 0.5, "output": 8}}}',
    "c.json",
  );
  assertEquals(cfg.prices?.["gpt-4.1"].output, 8);
  assertThrows(
    () => parseConfig('{"prices": {"m": {"input": -1, "output": 1}}}', "c.json"),
    /prices\.m\.input/,
  );
  assertThrows(() => parseConfig('{"prices": {"m": {"input": 1}}}', "c.json"), /prices\.m\.output/);
});

Deno.test("/usage counts a session's subagents apart, by model, after the conversation's own table", () => {
  const run = (n: number, model: string, usage: ReturnType<typeof u>) => ({
    n,
    agent: "explore",
    description: "d",
    at: "2026-01-01T00:00:00.000Z",
    ok: true,
    ms: 10,
    model,
    usage,
  });
  const text = sessionUsageText({
    usage: { big: u(1000, 800, 50) },
    subagents: [run(1, "big", u(300, 100, 20)), run(2, "big", u(200, 150, 10))],
  }, undefined);
  const [own, subs] = text.split("\n\nsubagents (2 runs, not in the table above):\n");
  assertEquals(own.split("\n")[1].split(/\s+/).slice(0, 4), ["big", "1000", "800", "50"]);
  assertEquals(subs.split("\n")[1].split(/\s+/).slice(0, 4), ["big", "500", "250", "30"]);
  assertEquals(subagentUsage([run(1, "big", u(300, 100, 20))]).prompt_tokens, 300);
  assertEquals(
    sessionUsageText({ usage: { big: u(1, 0, 1) }, subagents: [] }, undefined).includes("subagents"),
    false,
  );
});
