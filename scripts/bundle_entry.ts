// The entry of dist/navi.js (`deno task bundle`): the same start as main.ts. `--version` answers from this small
// module; everything else runs the early start (core/cli/early.ts, bundled into this entry: its own copy of
// the few modules it needs, which hold no state the main chunk shares) and then evaluates the chunk holding
// core/cli/mod.ts (see scripts/bundle_loader.ts).
// `NAVI_BUNDLE` is the constant scripts/bundle.ts writes above this code.
import { startEarly } from "../core/cli/early.ts";
import { VERSION } from "../core/version.ts";
import { type BundleData, cacheDirectory, chunkLoader } from "./bundle_loader.ts";

declare const NAVI_BUNDLE: BundleData;

if (Deno.args.length === 1 && (Deno.args[0] === "--version" || Deno.args[0] === "-v")) {
  console.log(VERSION);
} else {
  // The early start (trace, stdio servers spawned) runs before the main chunk is unpacked and evaluated.
  const start = startEarly(Deno.args);
  const chunks = await chunkLoader(NAVI_BUNDLE, {
    base: import.meta.url,
    cacheDir: cacheDirectory(Deno.env),
  });
  const { main } = chunks.load("main") as { main(args: string[], s: typeof start): Promise<number> };
  const status = await main(Deno.args, start);
  await chunks.save();
  Deno.exit(status);
}
