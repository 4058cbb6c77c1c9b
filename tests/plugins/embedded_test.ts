import { join } from "node:path";
import { NAVI_D_TS, PLUGIN_TEMPLATE } from "../../plugins/embedded.ts";
import { assertEquals, ROOT } from "../helpers.ts";

Deno.test("the embedded template and navi.d.ts equal the files in plugins/", async () => {
  assertEquals(PLUGIN_TEMPLATE, await Deno.readTextFile(join(ROOT, "plugins", "template.ts")));
  assertEquals(NAVI_D_TS, await Deno.readTextFile(join(ROOT, "plugins", "navi.d.ts")));
});
