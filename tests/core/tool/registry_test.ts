import { z } from "zod";
import { defineTool, RegistryError, ToolRegistry } from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, toolContext } from "../../helpers.ts";

const mk = (name: string, approval: "read_only" | "write" | "command" = "read_only") =>
  defineTool({
    name,
    description: `- Tool ${name}.`,
    parameters: z.object({ n: z.number() }),
    approval,
    handler: ({ n }) => ({ ok: true, doubled: n * 2 }),
  });

function throwsRegistryError(fn: () => void, re: RegExp) {
  try {
    fn();
  } catch (err) {
    assert(err instanceof RegistryError, "RegistryError");
    assertMatch(err.message, re);
    return;
  }
  throw new Error("expected a RegistryError");
}

Deno.test("register rejects duplicates and bad names", () => {
  const r = new ToolRegistry();
  r.register(mk("a"));
  throwsRegistryError(() => r.register(mk("a")), /already registered/);
  throwsRegistryError(() => r.register(mk("has space")), /Invalid tool name "has space"/);
  throwsRegistryError(() => r.register(mk("x".repeat(65))), /Invalid tool name/);
  throwsRegistryError(() => r.register(mk("")), /Invalid tool name/);
  r.register(mk("x".repeat(64)));
  r.register(mk("ok-name_2"));
  assertEquals(r.list().map((t) => t.name), ["a", "x".repeat(64), "ok-name_2"]);
});

Deno.test("two registries are independent", () => {
  const a = new ToolRegistry();
  const b = new ToolRegistry();
  a.register(mk("t"));
  assert(!b.has("t"));
  b.register(mk("t"));
});

Deno.test("get, list({ readOnly }) and unregister", () => {
  const r = new ToolRegistry();
  r.register(mk("ro"));
  r.register(mk("w", "write"));
  r.register(mk("c", "command"));
  assertEquals(r.get("w")?.approval, "write");
  assertEquals(r.get("nope"), undefined);
  assertEquals(r.list({ readOnly: true }).map((t) => t.name), ["ro"]);
  assert(r.unregister("w"));
  assert(!r.unregister("w"));
  assertEquals(r.list().map((t) => t.name), ["ro", "c"]);
});

Deno.test("toOpenAITools emits function tools with cached entries", () => {
  const r = new ToolRegistry();
  r.register(mk("a"));
  const first = r.toOpenAITools();
  assertEquals(first, [{
    type: "function",
    function: {
      name: "a",
      description: "- Tool a.",
      parameters: { properties: { n: { type: "number" } }, required: ["n"], type: "object" },
    },
  }]);
  assert(r.toOpenAITools()[0] === first[0], "entry object reused");
  assert(!JSON.stringify(first).includes("$schema"));
});

Deno.test("invoke never throws", async () => {
  const r = new ToolRegistry();
  r.register(mk("a"));
  const ctx = toolContext("/tmp");
  assertEquals(await r.invoke("a", '{"n":2}', ctx), { ok: true, doubled: 4 });
  assertEquals(await r.invoke("zzz", "{}", ctx), { ok: false, error: "Unknown tool: zzz" });
  const bad = await r.invoke("a", '{"n":"2"}', ctx);
  assert(!bad.ok);
  assertMatch(bad.error, /n: .*expected number/);
  const notJson = await r.invoke("a", "{n:2}", ctx);
  assert(!notJson.ok);
  assertMatch(notJson.error, /not valid JSON/);
});

Deno.test("version increases on every register and unregister, not on reads", () => {
  const r = new ToolRegistry();
  const v0 = r.version;
  r.register(mk("a"));
  r.unregister("a");
  r.unregister("a");
  r.list();
  r.toOpenAITools();
  assertEquals(r.version, v0 + 2);
});
