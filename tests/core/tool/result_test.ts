import { z } from "zod";
import { defineTool, toModelContent, truncateResult } from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, toolContext } from "../../helpers.ts";

const ctx = () => toolContext("/tmp");

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
