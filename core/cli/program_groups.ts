// The `navi mcp ...` and `navi plugins ...` command groups.
import type * as Commander from "@commander-js/extra-typings";
import type { NaviApp } from "../mod.ts";
import type { AppLoad, ProgramDeps } from "./program_types.ts";
import { terminalSafe } from "../output/neutralise.ts";

/** `navi mcp list|resources|login|logout|add|remove`. */
export function mcpCommand(
  { Command }: typeof Commander,
  { createApp, exit, args }: Pick<ProgramDeps, "createApp" | "exit" | "args">,
) {
  const collect = (value: string, previous: string[]) => [...previous, value];
  const mcp = new Command("mcp").description("MCP servers in config.json");
  mcp
    .command("list", { isDefault: true })
    .description(
      "connect to every configured server: transport, status, tool count, error (exit 1 if one failed)",
    )
    .option("--tools", "list each server's tool names")
    .action(async (opts) => {
      const app = await createApp({ mcp: true });
      const { mcpTable } = await import("./commands/mcp.ts");
      await app.startMcp();
      const states = app.mcpStates();
      console.log(
        terminalSafe(app.secrets.redact(mcpTable(states, Deno.stdout.isTerminal(), { tools: opts.tools }))),
      );
      if (states.some((s) => s.status !== "connected" && s.status !== "disabled")) exit(1);
    });
  mcp
    .command("resources")
    .description("the resources and resource templates of a server (mention one as @<server>:<uri>)")
    .argument("<name>", "server name")
    .action(async (name) => {
      const app = await createApp({ mcp: true, plugins: "skip" });
      const { resourcesTable } = await import("./commands/mcp.ts");
      await app.startMcp();
      const state = app.mcpStates().find((s) => s.name === name);
      if (!state) throw new Error(`no MCP server named ${name} in config.json`);
      if (state.status !== "connected") {
        throw new Error(app.secrets.redact(`MCP server ${name} ${state.status}: ${state.error ?? ""}`));
      }
      const catalog = (await app.mcpCatalogs()).get(name)!;
      console.log(terminalSafe(app.secrets.redact(resourcesTable(name, catalog))));
    });
  mcp
    .command("login")
    .description("log in to a Streamable HTTP server with OAuth (opens the browser; $BROWSER is honoured)")
    .argument("<name>", "server name")
    .option("--timeout <seconds>", "how long to wait for the browser", "300")
    .action(async (name, opts) => {
      const app = await createApp({ plugins: "skip" });
      const { openInBrowser } = await import("./browser.ts");
      const write = (text: string) =>
        void Deno.stderr.writeSync(new TextEncoder().encode(terminalSafe(text)));
      await app.loginMcp(name, {
        openUrl: (url) => openInBrowser(url, { server: name, write }),
        timeoutMs: Number(opts.timeout) * 1000,
      });
      const tools = app.mcpStates().find((s) => s.name === name)?.tools ?? 0;
      console.log(`logged in to ${name} (${tools} tools); the tokens are stored in ${app.home}/auth`);
    });
  mcp
    .command("logout")
    .description("forget the stored OAuth tokens of a server")
    .argument("<name>", "server name")
    .action(async (name) => {
      const app = await createApp({ plugins: "skip" });
      console.log((await app.logoutMcp(name)) ? `logged out of ${name}` : `no stored login for ${name}`);
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
    .allowUnknownOption()
    .action(async (name, command, opts) => {
      const dash = args.indexOf("--");
      if (command.length && (dash < 0 || args.length - dash - 1 !== command.length)) {
        throw new Error(
          "put the server command after --: navi mcp add <name> [--env K=V]... -- <command> [args...]",
        );
      }
      const [{ mcpAdd }, { naviHome }] = await Promise.all([
        import("./commands/mcp.ts"),
        import("../mod.ts"),
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
        import("./commands/mcp.ts"),
        import("../mod.ts"),
      ]);
      console.log(await mcpRemove(naviHome(), name));
    });
  return mcp;
}

/** `navi plugins list|init`. */
export function pluginsCommand(
  { Command }: typeof Commander,
  { createApp }: { createApp(load?: AppLoad): Promise<NaviApp> },
) {
  const plugins = new Command("plugins").description("list plugins in $NAVI_HOME/plugins, or create one");
  plugins
    .command("list", { isDefault: true })
    .description("each plugin file: loaded or failed, its tools, its error")
    .action(async () => {
      const app = await createApp({ plugins: "quiet" });
      const [{ pluginsList }, { pluginsDir }] = await Promise.all([
        import("./commands/plugins.ts"),
        import("../mod.ts"),
      ]);
      const control = { dir: pluginsDir(app.home), reports: () => app.plugins.reports };
      console.log(terminalSafe(app.secrets.redact(pluginsList(control, Deno.stdout.isTerminal()))));
    });
  plugins
    .command("init")
    .argument("<name>", "plugin name (file <name>.ts)")
    .description("write a commented plugin template and navi.d.ts into the plugins directory")
    .action(async (name) => {
      const [{ pluginsInit }, { naviHome }, { PLUGIN_TEMPLATE, NAVI_D_TS }] = await Promise.all([
        import("./commands/plugins.ts"),
        import("../mod.ts"),
        import("../../plugins/embedded.ts"),
      ]);
      console.log(await pluginsInit(naviHome(), name, { template: PLUGIN_TEMPLATE, types: NAVI_D_TS }));
    });
  return plugins;
}
