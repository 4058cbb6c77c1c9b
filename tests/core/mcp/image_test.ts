import { convertResult } from "../../../core/mcp/convert.ts";
import { MAX_IMAGE_BYTES } from "../../../core/tool/mod.ts";
import { MCP_TEST, stdioServer, testManager } from "../../support/mcp_manager.ts";
import { assert, assertEquals } from "../../helpers.ts";

Deno.test("an MCP image over 5 MB becomes a note; one within the limit is attached", MCP_TEST, async () => {
  await using t = await testManager({ t: stdioServer() });
  const big = await t.call("mcp__t__big_image", { bytes: 7 * 1024 * 1024 });
  assertEquals(big, {
    ok: true,
    output: "[image image/png, 7340032 bytes: over the 5 MB image limit, not attached]",
  });
  const fits = await t.call("mcp__t__big_image", { bytes: 4 * 1024 * 1024 });
  assert(fits.ok && fits._multimodal === true);
  assertEquals(String(fits._image_data_url).length, "data:image/png;base64,".length + 5592408);
});

Deno.test("the cap is exact, and only the first image of a result is attached", () => {
  const img = (bytes: number) => ({
    type: "image" as const,
    mimeType: "image/png",
    data: new Uint8Array(bytes).toBase64(),
  });
  const at = convertResult({ content: [img(MAX_IMAGE_BYTES)] });
  assert(at.ok && at._image_data_url !== undefined);
  const over = convertResult({ content: [img(MAX_IMAGE_BYTES + 1)] });
  assertEquals(over, {
    ok: true,
    output: `[image image/png, ${MAX_IMAGE_BYTES + 1} bytes: over the 5 MB image limit, not attached]`,
  });
  const two = convertResult({ content: [img(3), img(4)] });
  assertEquals(
    two.output,
    "[image image/png, attached]\n[image image/png, not attached: one image per result]",
  );
});
