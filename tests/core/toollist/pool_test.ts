import { z } from "zod";
import {
  assemble,
  defineTool,
  evolve,
  featureDisabled,
  type OpenAITool,
  ToolPool,
  ToolRegistry,
} from "../../../core/mod.ts";
import { assert, assertEquals } from "../../helpers.ts";

const mk = (
  name: string,
  approval: "read_only" | "write" | "command" = "read_only",
  description = `- ${name}`,
) => defineTool({ name, description, parameters: z.object({}), approval, handler: () => ({ ok: true }) });

function registry() {
  const r = new ToolRegistry();
  r.register(mk("read_file"));
  r.register(mk("bash", "command"));
  r.register(mk("zeta"), { kind: "plugin", origin: "a.ts" });
  r.register(mk("mcp__srv_b__x"), { kind: "mcp", origin: "srv_b" });
  r.register(mk("mcp__srv_a__z"), { kind: "mcp", origin: "srv_a" });
  r.register(mk("mcp__srv_a__b", "write"), { kind: "mcp", origin: "srv_a" });
  r.register(mk("alpha"), { kind: "plugin", origin: "b.ts" });
  return r;
}

const names = (list: readonly OpenAITool[]) => list.map((t) => t.function.name);

Deno.test("assembly: built-ins, then plugins in file order, then MCP by server and tool name", () => {
  assertEquals(assemble(registry(), { readOnly: false, features: {} }).map((t) => t.name), [
    "read_file",
    "bash",
    "zeta",
    "alpha",
    "mcp__srv_a__b",
    "mcp__srv_a__z",
    "mcp__srv_b__x",
  ]);
});

Deno.test("plan mode offers read-only tools only; feature gates switch tools off by name or glob", () => {
  assertEquals(assemble(registry(), { readOnly: true, features: {} }).map((t) => t.name), [
    "read_file",
    "zeta",
    "alpha",
    "mcp__srv_a__z",
    "mcp__srv_b__x",
  ]);
  const gated = assemble(registry(), { readOnly: false, features: { "mcp__srv_a__*": false, bash: false } });
  assertEquals(gated.map((t) => t.name), ["read_file", "zeta", "alpha", "mcp__srv_b__x"]);
  assert(featureDisabled("x", { "*": false }) && !featureDisabled("x", { "*": false, x: true }));
});

Deno.test("evolve returns the same array when nothing changed", () => {
  const r = registry();
  const available = r.toOpenAITools();
  const prev = evolve([], available).list;
  const same = evolve(prev, r.toOpenAITools());
  assert(same.list === prev, "identity");
  assertEquals({ ...same, list: [] }, { list: [], added: [], removed: [], changed: [] });
});

Deno.test("a list read back from a session regains the reference fast path without reporting a change", () => {
  const r = registry();
  const available = r.toOpenAITools();
  const persisted = JSON.parse(JSON.stringify(available)) as OpenAITool[];
  const rebased = evolve(persisted, available);
  assertEquals({ ...rebased, list: [] }, { list: [], added: [], removed: [], changed: [] });
  assert(rebased.list.every((t, i) => t === available[i]), "the live definitions replace the parsed ones");
  assertEquals(JSON.stringify(rebased.list), JSON.stringify(persisted), "the bytes are the same");
  const pool = new ToolPool(r, { readOnly: () => false, previous: persisted });
  const first = pool.sync();
  assertEquals(first.initial, false);
  assert(first.list !== persisted && first.list[0] === available[0]);
  r.register(mk("mcp__srv_a__later"), { kind: "mcp", origin: "srv_a" });
  const next = pool.sync();
  assertEquals([next.added, next.removed, next.changed], [["mcp__srv_a__later"], [], []]);
  assert(next.list.slice(0, -1).every((t, i) => t === first.list[i]), "survivors compared by reference");
});

Deno.test("evolve keeps positions, drops vanished tools and appends new ones", () => {
  const a = mk("a"), b = mk("b"), c = mk("c"), d = mk("d");
  const r = new ToolRegistry();
  const prev = r.toOpenAITools([a, b, c]);
  const next = evolve(prev, r.toOpenAITools([d, c, a]));
  assertEquals(names(next.list), ["a", "c", "d"]);
  assertEquals({ ...next, list: [] }, { list: [], added: ["d"], removed: ["b"], changed: [] });
  const changedDef = r.toOpenAITools([mk("a", "read_only", "- new text"), c]);
  const after = evolve(next.list, changedDef);
  assertEquals(names(after.list), ["a", "c"]);
  assertEquals(after.list[0].function.description, "- new text");
  assertEquals([after.added, after.removed, after.changed], [[], ["d"], ["a"]]);
});

Deno.test("the pool is O(1) and identical while nothing changes, and follows registry and mode changes", () => {
  const r = registry();
  let mode = "ask";
  const pool = new ToolPool(r, { readOnly: () => mode === "plan" });
  const start = pool.sync();
  assertEquals(start.initial, true, "a new conversation's first list is not a change");
  const first = start.list;
  assert(pool.sync().list === first);
  assertEquals(pool.sync().initial, false);
  assert(pool.json() === pool.json(first));
  const fp = pool.fingerprint();
  r.register(mk("mcp__srv_a__new"), { kind: "mcp", origin: "srv_a" });
  assert(pool.peek() !== first && pool.list === first, "peek does not commit");
  const second = pool.sync().list;
  assert(second !== first);
  assertEquals(names(second).slice(0, first.length), names(first), "established tools keep their positions");
  assertEquals(names(second).at(-1), "mcp__srv_a__new", "new tools are appended, not sorted in");
  assert(pool.json(second).startsWith(pool.json(first).slice(0, -1)), "old JSON is a prefix of the new one");
  assert(pool.fingerprint() !== fp);
  r.unregister("zeta");
  const third = pool.sync().list;
  assertEquals(
    names(third),
    names(second).filter((n) => n !== "zeta"),
    "survivors keep their relative order",
  );
  mode = "plan";
  const planned = pool.sync();
  assert(!names(planned.list).includes("bash"));
  assertEquals(planned.removed, ["bash", "mcp__srv_a__b"]);
});

Deno.test("plan mode and back: every tool returns to its place, so the list equals the one before", () => {
  const r = registry();
  let plan = false;
  const pool = new ToolPool(r, { readOnly: () => plan });
  const before = names(pool.sync().list);
  plan = true;
  const planned = pool.sync();
  assertEquals(planned.removed, ["bash", "mcp__srv_a__b"]);
  plan = false;
  const back = pool.sync();
  assertEquals(back.added, ["bash", "mcp__srv_a__b"]);
  assertEquals(names(back.list), before);
  assertEquals(names(pool.peek()), before);
});
