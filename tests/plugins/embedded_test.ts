import { join } from "node:path";
import { NAVI_D_TS, PLUGIN_TEMPLATE } from "../../plugins/embedded.ts";
import { assertEquals, ROOT } from "../helpers.ts";

Deno.test("plugins/navi.d.ts is generated from core/plugins/api.ts and fails when they drift (run deno task embed)", async () => {
  const { pluginTypes } = await import("../../scripts/embed.ts");
  const read = (p: string) => Deno.readTextFile(join(ROOT, p));
  const api = await read("core/plugins/api.ts");
  const types = await read("core/tool/types.ts");
  assertEquals(await read("plugins/navi.d.ts"), pluginTypes(api, types));
  const drifted = api.replace(
    "registerTool<S extends ParametersSchema>",
    "registerTools<S extends ParametersSchema>",
  );
  assertEquals(drifted === api, false, "the drift below is a real change of the API");
  assertEquals(pluginTypes(drifted, types) === (await read("plugins/navi.d.ts")), false);
});

Deno.test("the embedded template and navi.d.ts equal the files in plugins/", async () => {
  assertEquals(PLUGIN_TEMPLATE, await Deno.readTextFile(join(ROOT, "plugins", "template.ts")));
  assertEquals(NAVI_D_TS, await Deno.readTextFile(join(ROOT, "plugins", "navi.d.ts")));
});

Deno.test("the embedded plugin worker equals a fresh bundle of core/plugins/worker/worker.ts (run deno task embed)", async () => {
  const { bundleWorker } = await import("../../scripts/embed.ts");
  const { PLUGIN_WORKER_JS } = await import("../../core/plugins/worker_js.ts");
  const fresh = await bundleWorker(new URL(`file://${ROOT}`));
  assertEquals(
    PLUGIN_WORKER_JS.length,
    fresh.length,
    "core/plugins/worker_js.ts is stale: run deno task embed",
  );
  assertEquals(PLUGIN_WORKER_JS === fresh, true, "core/plugins/worker_js.ts is stale: run deno task embed");
});

Deno.test("the plugin worker bundle imports nothing: it runs from a blob: URL in the binary and the bundle", async () => {
  const { PLUGIN_WORKER_JS } = await import("../../core/plugins/worker_js.ts");
  assertEquals(/(?:^|[;}])\s*import\s*[\w{*"']|\bfrom\s*["']/m.exec(PLUGIN_WORKER_JS)?.[0] ?? null, null);
});
