#!/usr/bin/env -S deno run -A --unstable-worker-options
// navi's entry point. `--version` answers without loading any library. Everything else first runs the early
// start (core/cli/early.ts: the start-up trace, stdio MCP servers spawned), then loads core/cli/mod.ts; both
// through computed specifiers, so that Deno builds no module graph for `--version` and spawns the servers
// before it builds the large graph of the front (`deno task compile` embeds them with --include).
import { VERSION } from "./core/version.ts";

if (Deno.args.length === 1 && (Deno.args[0] === "--version" || Deno.args[0] === "-v")) {
  console.log(VERSION);
} else {
  const early = new URL("./core/cli/early.ts", import.meta.url).href;
  const { startEarly } = await import(early);
  const start = startEarly(Deno.args);
  const cli = new URL("./core/cli/mod.ts", import.meta.url).href;
  const { main } = await import(cli);
  // Everything navi started is closed by now; a library may still hold a timer, which must not delay the exit.
  Deno.exit(await main(Deno.args, start));
}
