// The navi CLI (commander). main.ts loads this module for everything but `--version`.
import { Command, Option } from "@commander-js/extra-typings";
import type { NaviApp } from "./core/app.ts";
import { VERSION } from "./core/version.ts";

const MODES = ["plan", "ask", "auto"] as const;

async function createApp(
  opts: { approval?: (typeof MODES)[number] },
  load: { plugins?: "report" | "quiet" | "skip" } = {},
): Promise<NaviApp> {
  const [{ loadConfig, naviHome }, { NaviApp }, { builtinTools }] = await Promise.all([
    import("./core/config.ts"),
    import("./core/app.ts"),
    import("./tools/mod.ts"),
  ]);
  const home = naviHome();
  const config = await loadConfig(home);
  if (Object.keys(config.mcp_servers ?? {}).length) import("./core/mcp/manager.ts").catch(() => {});
  const app = new NaviApp({
    home,
    workspace: Deno.cwd(),
    config,
    builtins: builtinTools(),
    approvalMode: opts.approval,
  });
  if (load.plugins === "skip") return app;
  const reports = await app.loadPlugins();
  if ((load.plugins ?? "report") === "report") {
    for (const r of reports) {
      if (r.status === "failed") console.error(`navi: plugin ${r.file} skipped: ${r.error}`);
    }
  }
  return app;
}

const program = new Command("navi")
  .description("A terminal coding agent for any OpenAI-compatible endpoint.")
  .version(VERSION, "-v, --version")
  .option("-p, --print <prompt>", "run one turn and print the answer (stdin, when piped, is appended)")
  .addOption(new Option("--output-format <format>", "output of --print").choices(["text", "json"] as const))
  .option("--provider <name>", "provider from config.json providers")
  .option("--model <name>", "model name")
  .addOption(new Option("--approval <mode>", "who approves tool calls").choices(MODES))
  .option("--resume <id>", "resume a saved session")
  .option("-c, --continue", "resume the newest session in this directory")
  .showHelpAfterError()
  .action(async (opts) => {
    const app = await createApp(opts);
    if (opts.print !== undefined) {
      const { printCommand } = await import("./core/commands/print_cmd.ts");
      Deno.exitCode = await printCommand(app, opts.print, opts);
      return;
    }
    const { runRepl } = await import("./core/repl.ts");
    Deno.exitCode = await runRepl(app, opts);
  });

program
  .command("tools")
  .description("show the tools the next model request would offer")
  .option("--json", "print exactly the `tools` array sent to the model")
  .action(async (opts, cmd) => {
    const all = cmd.optsWithGlobals() as typeof opts & { approval?: (typeof MODES)[number] };
    const app = await createApp(all);
    const { toolsCommand } = await import("./core/commands/tools_cmd.ts");
    await app.startMcp({ wait: true });
    console.log(toolsCommand(app, opts));
    for (const s of app.mcp?.states() ?? []) {
      if (s.error) console.error(app.secrets.redact(`navi: MCP server ${s.name} ${s.status}: ${s.error}`));
    }
    await app.close();
  });

program
  .command("sessions")
  .description("saved sessions, newest first")
  .option("--json", "machine-readable output")
  .action(async (opts, cmd) => {
    const app = await createApp(cmd.optsWithGlobals() as { approval?: (typeof MODES)[number] }, {
      plugins: "skip",
    });
    const { sessionsCommand } = await import("./core/commands/sessions_cmd.ts");
    console.log(sessionsCommand(app, opts));
  });

const collect = (value: string, previous: string[]) => [...previous, value];
const mcp = program.command("mcp").description("MCP servers in config.json");
mcp
  .command("list", { isDefault: true })
  .description("connect to every configured server: transport, status, tool count, error")
  .action(async (_opts, cmd) => {
    const app = await createApp(cmd.optsWithGlobals() as { approval?: (typeof MODES)[number] });
    const { mcpList } = await import("./core/commands/mcp_cmd.ts");
    console.log(app.secrets.redact(await mcpList(app)));
  });
mcp
  .command("add")
  .description("add a server: navi mcp add <name> [--env K=V]... -- <command> [args...] | --url <url>")
  .argument("<name>", "server name (letters, digits, _ and -)")
  .argument("[command...]", "stdio command and its arguments, after --")
  .option("--url <url>", "Streamable HTTP endpoint")
  .option(
    "--header <K:V>",
    "HTTP header (repeatable; a value of $VAR is read from the environment)",
    collect,
    [],
  )
  .option("--env <K=V>", "environment for a stdio server (repeatable)", collect, [])
  .action(async (name, command, opts) => {
    const [{ mcpAdd }, { naviHome }] = await Promise.all([
      import("./core/commands/mcp_cmd.ts"),
      import("./core/config.ts"),
    ]);
    console.log(
      await mcpAdd(naviHome(), name, { command, url: opts.url, env: opts.env, headers: opts.header }),
    );
  });
mcp
  .command("remove")
  .description("remove a server from config.json")
  .argument("<name>")
  .action(async (name) => {
    const [{ mcpRemove }, { naviHome }] = await Promise.all([
      import("./core/commands/mcp_cmd.ts"),
      import("./core/config.ts"),
    ]);
    console.log(await mcpRemove(naviHome(), name));
  });

const plugins = program.command("plugins").description("list plugins in $NAVI_HOME/plugins, or create one");
plugins
  .command("list", { isDefault: true })
  .description("each plugin file: loaded or failed, its tools, its error")
  .action(async (_opts, cmd) => {
    const app = await createApp(cmd.optsWithGlobals() as { approval?: (typeof MODES)[number] }, {
      plugins: "quiet",
    });
    const { pluginsList } = await import("./core/commands/plugins_cmd.ts");
    console.log(pluginsList(app, Deno.stdout.isTerminal()));
  });
plugins
  .command("init")
  .argument("<name>", "plugin name (file <name>.ts)")
  .description("write a commented plugin template and navi.d.ts into the plugins directory")
  .action(async (name) => {
    const [{ pluginsInit }, { naviHome }, { PLUGIN_TEMPLATE, NAVI_D_TS }] = await Promise.all([
      import("./core/commands/plugins_cmd.ts"),
      import("./core/config.ts"),
      import("./plugins/embedded.ts"),
    ]);
    console.log(await pluginsInit(naviHome(), name, { template: PLUGIN_TEMPLATE, types: NAVI_D_TS }));
  });

try {
  await program.parseAsync(Deno.args, { from: "user" });
} catch (err) {
  const [{ ConfigError }, { SessionError }] = await Promise.all([
    import("./core/config.ts"),
    import("./core/session.ts"),
  ]);
  console.error(`navi: ${err instanceof Error ? err.message : String(err)}`);
  Deno.exit(err instanceof ConfigError || err instanceof SessionError ? 2 : 1);
}
// Everything navi started is closed by now; libraries may still hold timers (the MCP SDK debounces
// list_changed refreshes), which must not delay the exit.
Deno.exit(Deno.exitCode);
