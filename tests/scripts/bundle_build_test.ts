// The checks scripts/bundle.ts makes on `deno bundle` and its output before it writes dist/navi.js.
import assertNode from "node:assert";
import { join } from "node:path";
import {
  bundleModule,
  chunkEntry,
  chunkOf,
  loadedSpecifiers,
  outsideLoads,
  packageOf,
  requireChunkImports,
} from "../../scripts/bundle.ts";
import { assert, assertEquals, assertMatch, ROOT, tempDir } from "../helpers.ts";

Deno.test("a specifier belongs to its package, and a split package to its chunk", () => {
  assertEquals(packageOf("zod/v4/core"), "zod");
  assertEquals(packageOf("@modelcontextprotocol/sdk/client/index.js"), "@modelcontextprotocol/sdk");
  assertEquals(chunkOf("zod/v3"), "zod");
  assertEquals(chunkOf("@modelcontextprotocol/sdk/types.js"), "mcp");
  assertEquals(chunkOf("openai"), "openai");
  assertEquals(chunkOf("re2js"), "re2js");
  assertEquals(chunkOf("commander"), "commander");
  assertEquals(chunkOf("ajv"), undefined);
  assertEquals(chunkOf("@modelcontextprotocol/server-everything"), undefined);
});

Deno.test("every package navi imports lazily has a chunk of its own, as lazy in the bundle as under deno run", async () => {
  const lazy = new Set<string>();
  for (const dir of ["core", "tools"]) {
    for await (const file of walkTs(join(ROOT, dir))) {
      for (const m of (await Deno.readTextFile(file)).matchAll(/\bimport\("([^."][^"]*)"\)/g)) {
        if (!m[1].startsWith("node:")) lazy.add(packageOf(m[1]));
      }
    }
  }
  assert(lazy.has("openai"), [...lazy].join(" "));
  for (const pkg of lazy) {
    assert(chunkOf(pkg) !== undefined, `${pkg} is imported lazily but bundled into main`);
  }
});

async function* walkTs(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* walkTs(path);
    else if (e.name.endsWith(".ts")) yield path;
  }
}

Deno.test("the loaded specifiers are require() and import() calls in code, not text in strings", () => {
  const js = [
    `var a=require("node:fs"),b=require("zod/v4");`,
    `c.code='require("ajv/dist/runtime/equal").default';`,
    'd=_`require("ajv-formats/dist/formats")`;',
    `e=await import("openai");f=await import(url);g=x.require("not-a-call");`,
  ].join("");
  assertEquals(loadedSpecifiers(js), ["node:fs", "openai", "zod/v4"]);
});

Deno.test("import() of a split package becomes a require; other imports stay", () => {
  assertEquals(
    requireChunkImports(`let{default:O}=await import("openai");m=await import(u);n=await import("node:fs");`),
    `let{default:O}=await Promise.resolve().then(()=>require("openai"));m=await import(u);` +
      `n=await import("node:fs");`,
  );
});

Deno.test("a chunk that would load a package from node_modules is refused", () => {
  assertEquals(outsideLoads("main", `require("node:path");require("zod");import("openai")`), []);
  assertEquals(outsideLoads("main", `require("left-pad");import("chalk")`), [
    "main: loads chalk, which is not bundled",
    "main: loads left-pad, which is not bundled",
  ]);
});

Deno.test("code using import.meta, empty in a CommonJS chunk, fails the build", async () => {
  await using dir = await tempDir();
  const entry = join(dir.path, "meta.ts");
  await Deno.writeTextFile(entry, "export const here = import.meta.url;\n");
  await assertNode.rejects(
    bundleModule(entry, { root: ROOT, format: "cjs" }),
    (err: Error) => /"import\.meta" is not available/.test(err.message),
  );
  await Deno.writeTextFile(entry, "export const here = 'no meta';\n");
  assertMatch(await bundleModule(entry, { root: ROOT, format: "cjs" }), /no meta/);
});

Deno.test("a split chunk's entry exports each specifier's namespace as an ES module", () => {
  assertEquals(
    chunkEntry(["zod", "zod/v4"]),
    [
      `import * as m0 from "zod";`,
      `import * as m1 from "zod/v4";`,
      "export const modules = {",
      `  "zod": { __esModule: true, ...m0 },`,
      `  "zod/v4": { __esModule: true, ...m1 },`,
      "};",
      "",
    ].join("\n"),
  );
});
