import { z } from "zod";
import { defineRawTool, defineTool, parseArguments } from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, assertThrows, toolContext } from "../../helpers.ts";

const ctx = () => toolContext("/tmp");

const echo = defineTool({
  name: "echo",
  description: "- Echoes.",
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  approval: "read_only",
  handler: ({ text, times = 1 }) => ({ ok: true, text: text.repeat(times) }),
});

Deno.test("defineTool validates JSON arguments and runs the handler", async () => {
  assertEquals(await echo.run('{"text":"ab","times":2}', ctx()), { ok: true, text: "abab" });
  assertEquals(await echo.run({ text: "x" }, ctx()), { ok: true, text: "x" });
});

Deno.test("invalid JSON arguments give an error the model can act on", async () => {
  const r = await echo.run('{"text": "a"', ctx());
  assert(!r.ok);
  assertMatch(r.error, /Invalid arguments for echo: not valid JSON/);
});

Deno.test("schema errors name the wrong field", async () => {
  const r = await echo.run('{"text": 5}', ctx());
  assert(!r.ok);
  assertMatch(r.error, /^Invalid arguments for echo: text: .*expected string/);
  const r2 = await echo.run('{"text": "a", "times": 0}', ctx());
  assert(!r2.ok);
  assertMatch(r2.error, /times: /);
  const r3 = await echo.run("[1]", ctx());
  assert(!r3.ok);
  assertMatch(r3.error, /expected a JSON object/);
});

Deno.test("a handler that throws becomes { ok: false, error }", async () => {
  const t = defineTool({
    name: "boom",
    description: "- Fails.",
    parameters: z.object({}),
    approval: "read_only",
    handler: () => {
      throw new Error("disk on fire");
    },
  });
  assertEquals(await t.run("", ctx()), { ok: false, error: "disk on fire" });
});

Deno.test("handler return values are normalized", async () => {
  const mk = (value: unknown) =>
    defineTool({
      name: "v",
      description: "- v",
      parameters: z.object({}),
      approval: "read_only",
      handler: () => value,
    });
  assertEquals(await mk("hi").run("", ctx()), { ok: true, output: "hi" });
  assertEquals(await mk({ ok: false }).run("", ctx()), { ok: false, error: "Tool failed" });
  assertEquals(await mk({ n: 1 }).run("", ctx()), { n: 1, ok: true });
  assertEquals(await mk(42).run("", ctx()), { ok: true, result: 42 });
});

Deno.test("JSON Schema has no $schema, no noise bounds and a deterministic key order", () => {
  assertEquals(echo.inputSchema, {
    properties: { text: { type: "string" }, times: { minimum: 1, type: "integer" } },
    required: ["text"],
    type: "object",
  });
  const raw = defineRawTool({
    name: "r",
    description: "- r",
    inputSchema: { $schema: "x", type: "object", properties: { b: { type: "string" }, a: {} } },
    approval: "command",
    handler: (args) => ({ ok: true, args }),
  });
  assertEquals(Object.keys(raw.inputSchema), ["properties", "type"]);
  assertEquals(Object.keys(raw.inputSchema.properties as object), ["b", "a"], "property order kept");
});

Deno.test("arguments must be one JSON object: null, arrays, numbers and strings are refused by name", async () => {
  const cases: [string, RegExp][] = [
    ["null", /expected a JSON object, got null/],
    ["[]", /expected a JSON object, got an array/],
    ["1", /expected a JSON object, got a number/],
    ['"x"', /expected a JSON object, got a string/],
    ['{"text": ', /not valid JSON/],
  ];
  for (const [raw, re] of cases) {
    assertThrows(() => parseArguments("echo", raw), re);
    const r = await echo.run(raw, ctx());
    assert(!r.ok);
    assertMatch(r.error, re);
  }
  assertEquals(parseArguments("echo", ""), {});
  assertEquals(parseArguments("echo", '{"a":1}'), { a: 1 });
});
