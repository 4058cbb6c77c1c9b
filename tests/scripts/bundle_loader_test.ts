// The chunk loader of dist/navi.js on small hand-written chunks: requires between chunks and of built-ins,
// evaluation once, refusal of anything else, dynamic imports from a chunk, and the V8 code cache.
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type BundleData, cacheDirectory, chunkLoader } from "../../scripts/bundle_loader.ts";
import { assert, assertEquals, assertThrows, tempDir } from "../helpers.ts";

const BASE = import.meta.url;

function bundleData(chunks: Record<string, string>, provides: Record<string, string> = {}): BundleData {
  const data: BundleData = { chunks: {}, hashes: {}, provides };
  for (const [name, js] of Object.entries(chunks)) {
    data.chunks[name] = gzipSync(new TextEncoder().encode(js)).toBase64();
    data.hashes[name] = `h${js.length}`;
  }
  return data;
}

const LIB = `exports.modules = { lib: { made: {}, twice: (n) => n * 2 }, "lib/extra": { word: "extra" } };`;
const MAIN = [
  `const { twice, made } = require("lib");`,
  `const { word } = require("lib/extra");`,
  `const { sep } = require("node:path");`,
  `exports.answer = () => twice(21) + sep + word;`,
  `exports.made = made;`,
  `exports.missing = () => require("left-pad");`,
].join("\n");

Deno.test("a chunk requires packages from other chunks and Node built-ins, each chunk evaluated once", async () => {
  const chunks = await chunkLoader(bundleData({ main: MAIN, lib: LIB }, { lib: "lib", "lib/extra": "lib" }), {
    base: BASE,
  });
  const main = chunks.load("main") as { answer(): string; made: object };
  assertEquals(main.answer(), "42/extra");
  assert(chunks.load("main") === main, "the same exports on a second load");
  const lib = chunks.load("lib") as { modules: { lib: { made: object } } };
  assert(lib.modules.lib.made === main.made, "lib was evaluated once, for main and for load()");
  assertEquals(chunks.loaded(), [{ name: "main", cached: false }, { name: "lib", cached: false }]);
});

Deno.test("a package that is not in the bundle is an error naming it, not a read of node_modules", async () => {
  const chunks = await chunkLoader(bundleData({ main: MAIN, lib: LIB }, { lib: "lib", "lib/extra": "lib" }), {
    base: BASE,
  });
  const main = chunks.load("main") as { missing(): unknown };
  assertThrows(() => main.missing(), /^left-pad is not part of this navi bundle$/);
  assertThrows(() => chunks.load("nope"), /no chunk named nope/);
});

Deno.test("a chunk that throws while evaluating is evaluated again on the next load", async () => {
  const chunks = await chunkLoader(
    bundleData({
      main: `exports.n = (globalThis.__naviLoaderTries = (globalThis.__naviLoaderTries ?? 0) + 1);
      if (exports.n === 1) throw new Error("first try fails");`,
    }),
    { base: BASE },
  );
  try {
    assertThrows(() => chunks.load("main"), /first try fails/);
    assertEquals(chunks.load("main").n, 2);
  } finally {
    delete (globalThis as Record<string, unknown>).__naviLoaderTries;
  }
});

Deno.test("chunk code is strict, imports data: modules (as plugins are loaded) and names itself in stacks", async () => {
  const chunks = await chunkLoader(
    bundleData({
      main: [
        `exports.sloppy = () => { undeclared = 1; };`,
        `exports.plugin = async () => (await import("data:text/javascript,export default 7")).default;`,
        `exports.stack = () => new Error("here").stack;`,
      ].join("\n"),
    }),
    { base: BASE },
  );
  const main = chunks.load("main") as { sloppy(): void; plugin(): Promise<number>; stack(): string };
  assertThrows(() => main.sloppy(), /undeclared is not defined/);
  assertEquals(await main.plugin(), 7);
  assert(main.stack().includes("navi:main.js:"), main.stack());
});

/** `loaded()` after loading chunk main of `data` in a new Deno process (no in-memory compilation cache). */
async function loadedInAnotherProcess(data: BundleData, cacheDir: string): Promise<unknown> {
  const loader = new URL("../../scripts/bundle_loader.ts", import.meta.url).href;
  const code = `import { chunkLoader } from "${loader}";
    const chunks = await chunkLoader(${JSON.stringify(data)}, { base: "${BASE}", cacheDir: ${
    JSON.stringify(cacheDir)
  } });
    chunks.load("main");
    console.log(JSON.stringify(chunks.loaded()));`;
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", code], stderr: "inherit" }).output();
  assert(out.success, "the second process loaded the chunk");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("the code cache is written once, used by the next process, and a damaged one is replaced", async () => {
  await using dir = await tempDir();
  const cacheDir = join(dir.path, "cache");
  const data = bundleData({ main: `exports.f = function f(a) { return [a, a].join("-"); };\n`.repeat(50) });
  const first = await chunkLoader(data, { base: BASE, cacheDir });
  assertEquals((first.load("main") as { f(a: string): string }).f("x"), "x-x");
  await first.save();
  const files = [...Deno.readDirSync(cacheDir)].map((e) => e.name);
  assertEquals(files, [`main-${data.hashes.main}-v8-${Deno.version.v8}.bin`]);

  assertEquals(await loadedInAnotherProcess(data, cacheDir), [{ name: "main", cached: true }]);

  const file = join(cacheDir, files[0]);
  await Deno.writeFile(file, new TextEncoder().encode("not a code cache"));
  const third = await chunkLoader(data, { base: BASE, cacheDir });
  assertEquals((third.load("main") as { f(a: string): string }).f("y"), "y-y");
  assertEquals(third.loaded(), [{ name: "main", cached: false }]);
  await third.save();
  assert((await Deno.stat(file)).size > 100, "the damaged cache file was rewritten");
});

Deno.test("a newer build's cache replaces the older build's files; an unwritable directory is no error", async () => {
  await using dir = await tempDir();
  const cacheDir = join(dir.path, "cache");
  const old = bundleData({ main: `exports.v = 1;` });
  const now = bundleData({ main: `exports.v = 22;` });
  for (const data of [old, now]) {
    const chunks = await chunkLoader(data, { base: BASE, cacheDir });
    chunks.load("main");
    await chunks.save();
  }
  assertEquals([...Deno.readDirSync(cacheDir)].map((e) => e.name.split("-")[1]), [now.hashes.main]);

  await Deno.writeTextFile(join(dir.path, "file"), "");
  const chunks = await chunkLoader(now, { base: BASE, cacheDir: join(dir.path, "file", "cache") });
  assertEquals(chunks.load("main").v, 22);
  await chunks.save();
});

Deno.test("the cache directory is cache/bundle/ in navi's home, and none without a home", () => {
  const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });
  assertEquals(cacheDirectory(env({ NAVI_HOME: "/n", HOME: "/h" })), "/n/cache/bundle");
  assertEquals(cacheDirectory(env({ HOME: "/h" })), "/h/.navi/cache/bundle");
  assertEquals(cacheDirectory(env({})), undefined);
});
