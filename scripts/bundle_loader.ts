/**
 * The chunk loader inside dist/navi.js (`deno task bundle`, scripts/bundle.ts). navi's code sits in the file
 * as a few CommonJS chunks, each gzip-compressed and base64-encoded, so that Deno neither parses nor compiles
 * it when the file starts: `--version` costs about what a hello-world costs. A chunk is decompressed and
 * evaluated the first time something requires it (the MCP SDK and openai only when a command uses them).
 *
 * Compiling a chunk is the expensive part, so the loader keeps V8's code cache for each chunk in a cache
 * directory (`cache/bundle/` in navi's home), as Deno does for `deno run` in DENO_DIR and Node does with
 * `module.enableCompileCache()`: written after the first run, checked by V8 (which rejects a cache made by
 * another V8 or for another text), named after the chunk's hash. Without a writable directory navi works the
 * same, only compiling every time. The code itself always comes from the file.
 * @module
 */
import type * as NodeVm from "node:vm";

/** What `deno task bundle` writes at the top of dist/navi.js. */
export interface BundleData {
  /** Chunk name -> base64 of the gzip-compressed CommonJS text. */
  chunks: Record<string, string>;
  /** Chunk name -> a hash of its text (names its code cache file). */
  hashes: Record<string, string>;
  /** Package specifier (`zod`, `openai`, `@modelcontextprotocol/sdk/types.js`, ...) -> the chunk providing it. */
  provides: Record<string, string>;
}

/** Loads chunks: `load(name)` evaluates a chunk once and returns its `module.exports`. */
export interface ChunkLoader {
  load(name: string): Record<string, unknown>;
  /** Writes the code cache of every chunk compiled without one; never throws (the cache is optional). */
  save(): Promise<void>;
  /** Names of the chunks evaluated so far, and whether V8 accepted a cached compilation for each. */
  loaded(): { name: string; cached: boolean }[];
}

/** Options of {@link chunkLoader}. */
export interface LoaderOptions {
  /** A file URL for Node's require of built-ins (the bundle's own `import.meta.url`). */
  base: string;
  /** Directory of code cache files; none: compile every time. */
  cacheDir?: string;
}

type Zlib = { gunzipSync(data: Uint8Array): Uint8Array };
type Chunk = {
  module: { exports: Record<string, unknown> };
  script: NodeVm.Script;
  cached: boolean;
  saved: boolean;
};

/**
 * A loader for the chunks in `data`. A chunk's `require(specifier)` gets a package from the chunk that provides
 * it (its `modules[specifier]`), or a Node built-in; anything else is an error naming the specifier: nothing
 * is read from node_modules or the network.
 */
export async function chunkLoader(data: BundleData, opts: LoaderOptions): Promise<ChunkLoader> {
  const [node, vm] = await Promise.all([import("node:module"), import("node:vm")]);
  const builtin = node.createRequire(opts.base);
  let zlib: Zlib | undefined;
  const chunks = new Map<string, Chunk>();
  const cacheFile = (name: string) =>
    opts.cacheDir && `${opts.cacheDir}/${name}-${data.hashes[name]}-v8-${Deno.version.v8}.bin`;

  const require = (specifier: string): unknown => {
    const chunk = data.provides[specifier];
    if (chunk !== undefined) return (load(chunk).modules as Record<string, unknown>)[specifier];
    if (node.isBuiltin(specifier)) return builtin(specifier);
    throw new Error(`${specifier} is not part of this navi bundle`);
  };

  const load = (name: string): Record<string, unknown> => {
    const done = chunks.get(name);
    if (done) return done.module.exports;
    const packed = data.chunks[name];
    if (packed === undefined) throw new Error(`this navi bundle has no chunk named ${name}`);
    zlib ??= builtin("node:zlib") as Zlib;
    const text = new TextDecoder().decode(zlib.gunzipSync(Uint8Array.fromBase64(packed)));
    const cachedData = readCache(cacheFile(name));
    // ES module code turned into CommonJS: strict, as it was; named for stack traces.
    const script = new vm.Script(`(function (require, module, exports) {"use strict";${text}\n})`, {
      filename: `navi:${name}.js`,
      cachedData,
      importModuleDynamically: (specifier: string) => import(specifier),
    });
    const cached = cachedData !== undefined && !script.cachedDataRejected;
    const chunk: Chunk = { module: { exports: {} }, script, cached, saved: false };
    chunks.set(name, chunk);
    try {
      script.runInThisContext()(require, chunk.module, chunk.module.exports);
    } catch (err) {
      chunks.delete(name);
      throw err;
    }
    return chunk.module.exports;
  };

  const save = async () => {
    for (const [name, chunk] of chunks) {
      const file = cacheFile(name);
      if (!file || chunk.cached || chunk.saved) continue;
      try {
        await Deno.mkdir(opts.cacheDir!, { recursive: true });
        const tmp = `${file}.${Deno.pid}.tmp`;
        await Deno.writeFile(tmp, chunk.script.createCachedData());
        await Deno.rename(tmp, file);
        chunk.saved = true;
        await removeOtherBuilds(opts.cacheDir!, name, data.hashes[name]);
      } catch {
        // No writable cache directory: the next run compiles again.
      }
    }
  };

  return {
    load,
    save,
    loaded: () => [...chunks].map(([name, c]) => ({ name, cached: c.cached })),
  };
}

/** Removes the cache files of other builds of chunk `name` (a newer or older navi.js). */
async function removeOtherBuilds(dir: string, name: string, hash: string | undefined): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith(`${name}-`) && e.name.endsWith(".bin") && !e.name.startsWith(`${name}-${hash}-`)) {
      await Deno.remove(`${dir}/${e.name}`).catch(() => {});
    }
  }
}

function readCache(file: string | undefined): Uint8Array | undefined {
  if (!file) return undefined;
  try {
    return Deno.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The bundle's code cache directory: `cache/bundle/` in navi's home ($NAVI_HOME, else ~/.navi); none without. */
export function cacheDirectory(env: { get(key: string): string | undefined }): string | undefined {
  const home = env.get("NAVI_HOME") || (env.get("HOME") ? `${env.get("HOME")}/.navi` : undefined);
  return home ? `${home}/cache/bundle` : undefined;
}
