import { z } from "zod";
import { type OpenAITool, ToolRegistry } from "../../core/registry.ts";
import { defineTool } from "../../core/tool.ts";
import { assemble, diffTools, evolve, featureDisabled, ToolPool } from "../../core/tool_pool.ts";
import { assert, assertEquals } from "../helpers.ts";

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
  const prev = evolve([], available);
  assert(evolve(prev, r.toOpenAITools()) === prev, "identity");
  const persisted = JSON.parse(JSON.stringify(prev)) as OpenAITool[];
  assert(evolve(persisted, available) === persisted, "equal definitions from disk count as unchanged");
});

Deno.test("evolve keeps positions, drops vanished tools and appends new ones", () => {
  const a = mk("a"), b = mk("b"), c = mk("c"), d = mk("d");
  const r = new ToolRegistry();
  const prev = r.toOpenAITools([a, b, c]);
  const next = evolve(prev, r.toOpenAITools([d, c, a]));
  assertEquals(names(next), ["a", "c", "d"]);
  assertEquals(diffTools(prev, next), { added: ["d"], removed: ["b"], changed: [] });
  const changedDef = r.toOpenAITools([mk("a", "read_only", "- new text"), c]);
  const after = evolve(next, changedDef);
  assertEquals(names(after), ["a", "c"]);
  assertEquals(after[0].function.description, "- new text");
});

Deno.test("the pool is O(1) and identical while nothing changes, and follows registry and filter changes", () => {
  const r = registry();
  const pool = new ToolPool(r, { filter: { readOnly: false, features: {} } });
  const first = pool.current();
  assert(pool.current() === first);
  assert(pool.json() === pool.json(first));
  const fp = pool.fingerprint();
  r.register(mk("mcp__srv_a__new"), { kind: "mcp", origin: "srv_a" });
  const second = pool.current();
  assert(second !== first);
  assertEquals(names(second).slice(0, first.length), names(first), "established tools keep their positions");
  assertEquals(names(second).at(-1), "mcp__srv_a__new", "new tools are appended, not sorted in");
  assert(pool.json(second).startsWith(pool.json(first).slice(0, -1)), "old JSON is a prefix of the new one");
  assert(pool.fingerprint() !== fp);
  r.unregister("zeta");
  const third = pool.current();
  assertEquals(
    names(third),
    names(second).filter((n) => n !== "zeta"),
    "survivors keep their relative order",
  );
  pool.setFilter({ readOnly: true, features: {} });
  assert(!names(pool.current()).includes("bash"));
});
