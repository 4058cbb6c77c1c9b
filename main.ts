#!/usr/bin/env -S deno run -A --unstable-worker-options
// navi's entry point. `--version` answers without loading any library; everything else is in core/cli/mod.ts,
// loaded through a computed specifier so that Deno does not build the whole module graph for `--version`
// (`deno task compile` embeds it with --include).
import { VERSION } from "./core/version.ts";

if (Deno.args.length === 1 && (Deno.args[0] === "--version" || Deno.args[0] === "-v")) {
  console.log(VERSION);
} else {
  const cli = new URL("./core/cli/mod.ts", import.meta.url).href;
  const { main } = await import(cli);
  // Everything navi started is closed by now; a library may still hold a timer, which must not delay the exit.
  Deno.exit(await main(Deno.args));
}
