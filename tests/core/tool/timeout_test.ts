import { z } from "zod";
import { defineTool } from "../../../core/mod.ts";
import { assert, assertEquals, toolContext } from "../../helpers.ts";

const ctx = () => toolContext("/tmp");

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
