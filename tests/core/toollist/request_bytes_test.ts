// navi's own bytes: over a 20-request session with every tool-changing event (MCP list_changed adds a tool,
// another server changes a description, /plugins reload, plan -> ask, a resume in a new process), nothing navi
// sends changes between requests except the tools those events change, and navi's own cache telemetry
// (cache_breaks, cache_hit_ratio) agrees with what the provider-like server measured.
import type { DeferMode } from "../../../core/mod.ts";
import { rebilledTokens } from "../../support/llm_cache.ts";
import type { Recorded } from "../../support/llm_server.ts";
import { rawField } from "../../support/raw_json.ts";
import { runScenario } from "../../support/cache_scenario.ts";
import { assert, assertEquals } from "../../helpers.ts";

// About 1,300 tokens a turn: the first event comes while the conversation is under 2,000 tokens, the others after.
const OPTIONS = {
  turns: 8,
  eventTurns: [2, 4, 5, 7] as [number, number, number, number],
  resumedRequests: 4,
  deferAboveTokens: 2000,
};
const KEYS = ["model", "messages", "tools", "stream", "stream_options", "prompt_cache_key"];

type Tool = { function: { name: string } };
const toolsOf = (q: Recorded) =>
  (q.body.tools as Tool[]).map((t) => ({ name: t.function.name, json: JSON.stringify(t) }));

/** The first index at which two requests' tools differ, or -1. */
function firstToolChange(a: Recorded, b: Recorded): number {
  const x = toolsOf(a);
  const y = toolsOf(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i]?.json !== y[i]?.json) return i;
  return -1;
}

/** Between two consecutive requests: same keys, same system prompt, old messages byte for byte, old tools in order. */
function assertOnlyToolEvents(prev: Recorded, cur: Recorded, what: string): void {
  assertEquals(Object.keys(JSON.parse(cur.raw)), KEYS, `${what}: top-level keys in one order`);
  const before = rawField(prev.raw, "messages");
  assert(
    rawField(cur.raw, "messages").startsWith(before.slice(0, -1)),
    `${what}: earlier messages byte for byte`,
  );
  const p = toolsOf(prev);
  const c = toolsOf(cur);
  const kept = new Set(c.map((t) => t.name));
  const old = new Set(p.map((t) => t.name));
  assertEquals(
    c.filter((t) => old.has(t.name)).map((t) => t.name),
    p.filter((t) => kept.has(t.name)).map((t) => t.name),
    `${what}: tool order`,
  );
  const added = c.filter((t) => !old.has(t.name));
  assertEquals(c.slice(c.length - added.length), added, `${what}: new tools are appended`);
  const changed = c.filter((t) => old.has(t.name) && p.find((x) => x.name === t.name)!.json !== t.json);
  assert(
    changed.length <= 1,
    `${what}: at most the one redefined tool differs (${changed.map((t) => t.name)})`,
  );
}

async function session(defer: DeferMode) {
  const r = await runScenario({ defer, ...OPTIONS });
  assertEquals(r.requests.length, 20);
  const events = new Set(r.events.map((e) => e.request));
  for (let i = 1; i < r.requests.length; i++) {
    const [prev, cur] = [r.requests[i - 1], r.requests[i]];
    assertOnlyToolEvents(prev, cur, `${defer} request ${i}`);
    if (!events.has(i)) {
      assertEquals(rawField(cur.raw, "tools"), rawField(prev.raw, "tools"), `${defer} ${i}`);
    }
  }
  const system = rawField(r.requests[0].raw, "messages").slice(0, 400);
  assert(r.requests.every((q) => rawField(q.raw, "messages").startsWith(system)), "one system prompt");
  assert(r.events.every((e) => e.call.ok), `every new tool worked at once: ${JSON.stringify(r.events)}`);
  const breaks = r.requests.flatMap((q, i) =>
    i > 0 && rebilledTokens(r.requests[i - 1].body, q.body) > 0 ? [i] : []
  );
  assertEquals(
    r.resumed.cache_hit_ratio,
    Math.round((r.cached / r.prompt) * 10_000) / 10_000,
    "navi's hit ratio",
  );
  return { r, breaks };
}

Deno.test("never: only the tools an event changes differ between requests, and navi names each break", {
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const { r, breaks } = await session("never");
  assertEquals(
    breaks,
    r.events.slice(0, 4).map((e) => e.request),
    "the four in-process events, not the resume",
  );
  const why = ["list_changed from docs", "list_changed from web", "plugin stamp.js", "approval mode ask"];
  assertEquals(
    r.resumed.cache_breaks,
    breaks.map((i, n) => ({
      request: i + 1,
      at: `tools[${firstToolChange(r.requests[i - 1], r.requests[i])}] (${why[n]})`,
    })),
  );
});

Deno.test("auto and always: every request extends the previous one, but auto's first (small) change", {
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const auto = await session("auto");
  const fold = auto.r.events[0].request;
  assertEquals(auto.breaks, [fold], "auto folded the change made while the conversation was small");
  const at = firstToolChange(auto.r.requests[fold - 1], auto.r.requests[fold]);
  assertEquals(auto.r.resumed.cache_breaks, [{
    request: fold + 1,
    at: `tools[${at}] (list_changed from docs)`,
  }]);
  const always = await session("always");
  assertEquals(always.breaks, []);
  assertEquals(always.r.resumed.cache_breaks, []);
});
