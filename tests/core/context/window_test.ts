import { FALLBACK_LIMITS, modelLimits, promptBudget } from "../../../core/mod.ts";
import { assertEquals } from "../../helpers.ts";

Deno.test("model limits: config beats the built-in family, a vendor prefix is ignored, unknown models fall back", () => {
  assertEquals(modelLimits("gpt-4o-mini"), {
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    source: "built-in",
  });
  assertEquals(modelLimits("openai/gpt-4.1-mini").contextWindow, 1_047_576);
  assertEquals(modelLimits("gpt-4").contextWindow, 8_192, "the longest prefix wins: gpt-4 is not gpt-4o");
  assertEquals(modelLimits("my-local-model"), FALLBACK_LIMITS);
  assertEquals(modelLimits(undefined), FALLBACK_LIMITS);
  assertEquals(
    modelLimits("gpt-4o", { "gpt-4o": { context_window: 50_000 } }),
    { contextWindow: 50_000, maxOutputTokens: 16_384, source: "config" },
  );
  assertEquals(
    modelLimits("m", { m: { context_window: 4_000, max_output_tokens: 9_000 } }),
    { contextWindow: 4_000, maxOutputTokens: 4_000, source: "config" },
    "the output limit never exceeds the window",
  );
});

Deno.test("the prompt budget keeps the answer's room: the output limit, at most a quarter of the window, at least 1,024", () => {
  assertEquals(
    promptBudget({ contextWindow: 128_000, maxOutputTokens: 16_384, source: "built-in" }),
    111_616,
  );
  assertEquals(
    promptBudget({ contextWindow: 200_000, maxOutputTokens: 100_000, source: "built-in" }),
    150_000,
  );
  assertEquals(promptBudget({ contextWindow: 8_000, maxOutputTokens: 100, source: "config" }), 6_976);
});
