// `deno task bundle`: writes dist/navi.js, navi as one self-contained file: `deno run -A dist/navi.js`.
// The file is a small ES module (scripts/bundle_entry.ts with scripts/bundle_loader.ts) followed by navi's code
// as CommonJS chunks made by `deno bundle`, gzip-compressed and base64-encoded, evaluated only when needed:
// `main` (core/cli/mod.ts, the engine, tools, ...) and one chunk per package in SPLIT. Nothing is
// imported from the repository, node_modules or the network at run time; the build fails if a chunk would.
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { BundleData } from "./bundle_loader.ts";

/**
 * npm packages kept in chunks of their own, evaluated on first use; everything else is in `main`. Every package
 * navi imports lazily (`await import("pkg")`) is here, so that the bundle loads no more than `deno run` does;
 * zod is here because the MCP SDK shares it with navi.
 */
export const SPLIT: Record<string, string[]> = {
  zod: ["zod"],
  openai: ["openai"],
  mcp: ["@modelcontextprotocol/sdk"],
  re2js: ["re2js"],
  minisearch: ["minisearch"],
  acorn: ["acorn"],
  yaml: ["yaml"],
  commander: ["commander", "@commander-js/extra-typings"],
  acp: ["@agentclientprotocol/sdk"],
};

/** The package a bare specifier belongs to: `zod/v4` -> `zod`, `@scope/pkg/sub.js` -> `@scope/pkg`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return parts.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
}

/** The SPLIT chunk that provides `specifier`, if any. */
export function chunkOf(specifier: string): string | undefined {
  const pkg = packageOf(specifier);
  return Object.keys(SPLIT).find((name) => SPLIT[name].includes(pkg));
}

// `require("x")` and `import("x")` as code; not inside string literals (ajv keeps `require("...")` in code
// strings it generates for standalone validators, which navi never evaluates).
const REQUIRE = /(?<![\w$.'"`])require\("([^"]+)"\)/g;
const IMPORT = /(?<![\w$.'"`])import\("([^"]+)"\)/g;

/** The specifiers a CommonJS chunk loads with `require("...")` or `import("...")`, sorted, without repeats. */
export function loadedSpecifiers(js: string): string[] {
  const found = new Set<string>();
  for (const re of [REQUIRE, IMPORT]) for (const m of js.matchAll(re)) found.add(m[1]);
  return [...found].sort();
}

/**
 * `js` with every `import("x")` of a chunk-provided package turned into a `require` (a chunk is evaluated as
 * a function body: its `import()` would go to Deno's module loader, which knows no `x`).
 */
export function requireChunkImports(js: string): string {
  return js.replace(
    IMPORT,
    (all, spec: string) => chunkOf(spec) ? `Promise.resolve().then(()=>require("${spec}"))` : all,
  );
}

/** Problems that would make a chunk reach outside the file at run time; empty when it is self-contained. */
export function outsideLoads(name: string, js: string): string[] {
  const out: string[] = [];
  for (const spec of loadedSpecifiers(js)) {
    if (!isBuiltin(spec) && chunkOf(spec) === undefined) {
      out.push(`${name}: loads ${spec}, which is not bundled`);
    }
  }
  return out;
}

/** The entry module of a SPLIT chunk: each specifier's namespace under `modules`, marked as an ES module. */
export function chunkEntry(specifiers: string[]): string {
  const lines = specifiers.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};`);
  const fields = specifiers.map((s, i) => `  ${JSON.stringify(s)}: { __esModule: true, ...m${i} },`);
  return [...lines, "export const modules = {", ...fields, "};", ""].join("\n");
}

/** How {@link bundleModule} runs `deno bundle`. */
export interface BundleRun {
  root: string;
  format: "esm" | "cjs";
  externals?: string[];
}

/** `deno bundle` of `entry`, minified, as text; esbuild's warnings are errors. */
export async function bundleModule(entry: string, run: BundleRun): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "navi-bundle-" });
  try {
    const out = join(dir, "out.js");
    const args = ["bundle", "--config", join(run.root, "deno.json"), "--platform", "deno"];
    args.push("--format", run.format, "--minify", ...(run.format === "cjs" ? ["--keep-names"] : []));
    for (const e of run.externals ?? []) args.push("--external", e);
    const env = { NO_COLOR: "1" };
    const r = await new Deno.Command(Deno.execPath(), {
      args: [...args, "-o", out, entry],
      cwd: run.root,
      env,
    })
      .output();
    const err = new TextDecoder().decode(r.stderr).trim();
    if (!r.success) throw new Error(`deno bundle ${entry} failed:\n${err}`);
    // esbuild's warnings (an empty import.meta in a CommonJS chunk, a require it cannot follow) fail the build.
    if (/warning|error/i.test(err)) throw new Error(`deno bundle ${entry} warned:\n${err}`);
    return await Deno.readTextFile(out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * navi's code as CommonJS chunks: `main` from core/cli/mod.ts with the SPLIT packages external, then a chunk per
 * SPLIT entry exporting exactly the specifiers the other chunks load, rebuilt until no chunk asks for more.
 */
export async function buildChunks(root: string): Promise<Record<string, string>> {
  const all = Object.values(SPLIT).flat();
  const texts: Record<string, string> = {
    main: await bundleModule(join(root, "core/cli/mod.ts"), { root, format: "cjs", externals: all }),
  };
  const wanted = new Map<string, Set<string>>();
  const entries = await Deno.makeTempDir({ prefix: "navi-chunks-" });
  try {
    for (let round = 0; round < 5; round++) {
      const changed = new Set<string>();
      for (const js of Object.values(texts)) {
        for (const spec of loadedSpecifiers(js)) {
          const chunk = chunkOf(spec);
          if (chunk === undefined || wanted.get(chunk)?.has(spec)) continue;
          wanted.set(chunk, (wanted.get(chunk) ?? new Set()).add(spec));
          changed.add(chunk);
        }
      }
      if (!changed.size) return texts;
      for (const chunk of changed) {
        const entry = join(entries, `${chunk}.ts`);
        await Deno.writeTextFile(entry, chunkEntry([...wanted.get(chunk)!].sort()));
        const externals = all.filter((p) => !SPLIT[chunk].includes(p));
        texts[chunk] = await bundleModule(entry, { root, format: "cjs", externals });
      }
    }
    throw new Error("the chunks kept asking for more specifiers after 5 rounds");
  } finally {
    await Deno.remove(entries, { recursive: true });
  }
}

/** The text of dist/navi.js: a shebang, a header, the packed chunks and the entry module. */
export function bundleFile(data: BundleData, entry: string, version: string): string {
  return [
    "#!/usr/bin/env -S deno run -A --unstable-worker-options",
    `// navi ${version} in one file, written by \`deno task bundle\` (scripts/bundle.ts); do not edit.`,
    "// Run: deno run -A --unstable-worker-options navi.js. navi's code is in NAVI_BUNDLE, gzip + base64.",
    `const NAVI_BUNDLE = ${JSON.stringify(data)};`,
    entry,
  ].join("\n");
}

/** Builds dist/navi.js (or `out`) from the repository at `root`; returns its path and each part's size. */
export async function buildBundle(root: string, out = join(root, "dist/navi.js")): Promise<{
  file: string;
  sizes: Record<string, number>;
}> {
  const texts = await buildChunks(root);
  const data: BundleData = { chunks: {}, hashes: {}, provides: {} };
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(texts)) {
    const js = requireChunkImports(raw);
    problems.push(...outsideLoads(name, js));
    const bytes = new TextEncoder().encode(js);
    data.chunks[name] = gzipSync(bytes, { level: 9 }).toBase64();
    data.hashes[name] = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).toHex().slice(0, 16);
    if (name !== "main") { for (const spec of loadedSpecifiersOf(texts, name)) data.provides[spec] = name; }
  }
  if (problems.length) {
    throw new Error(`the bundle would load code from outside the file:\n${problems.join("\n")}`);
  }
  const entry = await bundleModule(join(root, "scripts/bundle_entry.ts"), { root, format: "esm" });
  if (/^\s*import\s/m.test(entry)) throw new Error("the bundle entry has a static import");
  const { VERSION } = await import("../core/version.ts");
  await Deno.mkdir(join(out, ".."), { recursive: true });
  await Deno.writeTextFile(out, bundleFile(data, entry, VERSION));
  await Deno.chmod(out, 0o755);
  const sizes: Record<string, number> = { total: (await Deno.stat(out)).size, entry: entry.length };
  for (const [name, packed] of Object.entries(data.chunks)) sizes[name] = packed.length;
  return { file: out, sizes };
}

/** The specifiers of chunk `name` that any chunk loads. */
function loadedSpecifiersOf(texts: Record<string, string>, name: string): string[] {
  const specs = Object.values(texts).flatMap(loadedSpecifiers).filter((s) => chunkOf(s) === name);
  return [...new Set(specs)].sort();
}

if (import.meta.main) {
  const root = new URL("..", import.meta.url).pathname;
  const { file, sizes } = await buildBundle(root);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const parts = Object.entries(sizes).filter(([k]) => k !== "total").map(([k, v]) => `${k} ${kb(v)}`);
  console.log(`${file}: ${kb(sizes.total)} (${parts.join(", ")})`);
}
