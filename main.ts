#!/usr/bin/env -S deno run -A
// navi's entry point. `--version` answers without loading any library; everything else is in cli.ts, loaded
// through a computed specifier so that Deno does not build the whole module graph for `--version`
// (`deno task compile` embeds cli.ts with --include).
import { VERSION } from "./core/version.ts";

if (Deno.args.length === 1 && (Deno.args[0] === "--version" || Deno.args[0] === "-v")) {
  console.log(VERSION);
} else {
  const cli = new URL("./cli.ts", import.meta.url).href;
  await import(cli);
}
