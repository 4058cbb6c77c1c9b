#!/usr/bin/env -S deno run -A
import { Command, Option } from "@commander-js/extra-typings";
import { VERSION } from "./core/version.ts";
import type { NaviApp } from "./core/app.ts";

const MODES = ["plan", "ask", "auto"] as const;

async function createApp(opts: { approval?: (typeof MODES)[number] }): Promise<NaviApp> {
  const [{ loadConfig, naviHome }, { NaviApp }, { builtinTools }] = await Promise.all([
    import("./core/config.ts"),
    import("./core/app.ts"),
    import("./tools/mod.ts"),
  ]);
  const home = naviHome();
  const config = await loadConfig(home);
  return new NaviApp({
    home,
    workspace: Deno.cwd(),
    config,
    builtins: builtinTools(),
    approvalMode: opts.approval,
  });
}

const program = new Command("navi")
  .description("A terminal coding agent for any OpenAI-compatible endpoint.")
  .version(VERSION, "-v, --version")
  .addOption(new Option("--approval <mode>", "who approves tool calls").choices(MODES))
  .showHelpAfterError();

program
  .command("tools")
  .description("show the tools the next model request would offer")
  .option("--json", "print exactly the `tools` array sent to the model")
  .action(async (opts, cmd) => {
    const all = cmd.optsWithGlobals() as typeof opts & { approval?: (typeof MODES)[number] };
    const app = await createApp(all);
    const { toolsCommand } = await import("./core/commands/tools_cmd.ts");
    console.log(toolsCommand(app, opts));
  });

try {
  await program.parseAsync(Deno.args, { from: "user" });
} catch (err) {
  const { ConfigError } = await import("./core/config.ts");
  console.error(`navi: ${err instanceof Error ? err.message : String(err)}`);
  Deno.exit(err instanceof ConfigError ? 2 : 1);
}
