import { z } from "zod";
import { defineRawTool, defineTool, toModelContent, truncateResult } from "../../core/mod.ts";
import { assert, assertEquals, assertMatch, toolContext } from "../helpers.ts";

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

Deno.test("a handler that hangs past its timeout fails with a timeout and sees its signal aborted", async () => {
  let aborted = false;
  const t = defineTool({
    name: "hang",
    description: "- Hangs.",
    parameters: z.object({}),
    approval: "read_only",
    timeoutMs: 50,
    handler: (_args, c) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        c.signal.addEventListener("abort", () => {
          aborted = true;
          clearTimeout(timer);
          resolve({ ok: true });
        });
      }),
  });
  const r = await t.run("{}", ctx());
  assertEquals(r, { ok: false, error: "hang timed out after 50 ms" });
  assert(aborted, "handler signal aborted");
});

Deno.test("a user abort stops a running handler", async () => {
  const controller = new AbortController();
  const t = defineTool({
    name: "slow",
    description: "- Slow.",
    parameters: z.object({}),
    approval: "read_only",
    handler: (_a, c) =>
      new Promise((resolve) => c.signal.addEventListener("abort", () => resolve({ ok: true }))),
  });
  const pending = t.run("{}", toolContext("/tmp", { signal: controller.signal }));
  controller.abort();
  assertEquals(await pending, { ok: false, error: "Aborted by the user" });
});

Deno.test("long output is truncated with a marker and truncated: true", async () => {
  const t = defineTool({
    name: "big",
    description: "- Big.",
    parameters: z.object({}),
    approval: "read_only",
    maxOutputChars: 1000,
    handler: () => ({ ok: true, output: "x".repeat(5000), _signal: "y".repeat(5000) }),
  });
  const r = await t.run("{}", ctx());
  assert(r.ok && r.truncated === true);
  const content = toModelContent(r);
  assert(content.length <= 1000, `content ${content.length} <= 1000`);
  assertMatch(r.output as string, /\[\.\.\. truncated \d+ characters\]$/);
  assertEquals((r._signal as string).length, 5000, "control fields are kept whole");
});

Deno.test("truncation falls back to the serialized JSON when no string field carries the bulk", () => {
  const r = truncateResult({ ok: true, items: Array.from({ length: 500 }, (_, i) => i) }, 200);
  assert(r.ok && r.truncated === true);
  assert(toModelContent(r).length < 300);
});

Deno.test("control fields never reach the model", () => {
  assertEquals(toModelContent({ ok: true, a: 1, _image_data_url: "data:..." }), '{"ok":true,"a":1}');
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
