// The commands that manage what extends navi: `navi mcp` (the MCP servers of config.json) and `navi plugins`
// (the plugins directory and plugin bundles). Their work lives in commands/, imported when a command runs.
import type * as Commander from "@commander-js/extra-typings";
import type { NaviApp } from "../mod.ts";
import type { Sink } from "../output/mod.ts";

/** What these commands get from the program (a part of its `ExtensionDeps`). */
export interface ExtensionDeps {
  /** An app with plugins reported, quiet or skipped, and stdio MCP servers started early when `mcp`. */
  createApp(load?: { plugins?: "report" | "quiet" | "skip"; mcp?: boolean }): Promise<NaviApp>;
  exit(code: number): void;
  /** The command line as given (to tell whether `--` was used). */
  args: string[];
  /** Standard output (through the output sink). */
  out: Sink;
  /** Standard error (through the output sink). */
  err: Sink;
}

/** `navi mcp list|resources|login|logout|add|remove`. */
export function mcpCommand(commander: typeof Commander, deps: ExtensionDeps) {
  const mcp = new commander.Command("mcp").description("MCP servers in config.json");
  mcp.addCommand(mcpList(commander, deps), { isDefault: true });
  for (const build of [mcpResources, mcpLogin, mcpLogout, mcpAdd, mcpRemove]) {
    mcp.addCommand(build(commander, deps));
  }
  return mcp;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function mcpList({ Command }: typeof Commander, deps: ExtensionDeps) {
  const { createApp, exit, out } = deps;
  return new Command("list")
    .description(
      "connect to every configured server: transport, status, tool count, error (exit 1 if one failed)",
    )
    .option("--tools", "list each server's tool names")
    .action(async (opts) => {
      const app = await createApp({ mcp: true });
      const { mcpTable } = await import("./commands/mcp.ts");
      await app.mcp.start();
      const states = app.mcp.states();
      out.write(mcpTable(states, Deno.stdout.isTerminal(), { tools: opts.tools }) + "\n");
      if (states.some((s) => s.status !== "connected" && s.status !== "disabled")) exit(1);
    });
}

function mcpResources({ Command }: typeof Commander, deps: ExtensionDeps) {
  const { createApp, out } = deps;
  return new Command("resources")
    .description("the resources and resource templates of a server (mention one as @<server>:<uri>)")
    .argument("<name>", "server name")
    .action(async (name) => {
      const app = await createApp({ mcp: true, plugins: "skip" });
      const { resourcesTable } = await import("./commands/mcp.ts");
      await app.mcp.start();
      const state = app.mcp.states().find((s) => s.name === name);
      if (!state) throw new Error(`no MCP server named ${name} in config.json`);
      if (state.status !== "connected") {
        throw new Error(`MCP server ${name} ${state.status}: ${state.error ?? ""}`);
      }
      const catalog = (await app.mcp.catalogs()).get(name)!;
      out.write(resourcesTable(name, catalog) + "\n");
    });
}

function mcpLogin({ Command }: typeof Commander, deps: ExtensionDeps) {
  const { createApp, out, err } = deps;
  return new Command("login")
    .description("log in to a Streamable HTTP server with OAuth (opens the browser; $BROWSER is honoured)")
    .argument("<name>", "server name")
    .option("--timeout <seconds>", "how long to wait for the browser", "300")
    .action(async (name, opts) => {
      const app = await createApp({ plugins: "skip" });
      const { openInBrowser } = await import("./browser.ts");
      await app.mcp.login(name, {
        openUrl: (url) => openInBrowser(url, { server: name, write: (text) => err.write(text) }),
        timeoutMs: Number(opts.timeout) * 1000,
      });
      const tools = app.mcp.states().find((s) => s.name === name)?.tools ?? 0;
      out.write(`logged in to ${name} (${tools} tools); the tokens are stored in ${app.home}/auth\n`);
    });
}

function mcpLogout({ Command }: typeof Commander, deps: ExtensionDeps) {
  const { createApp, out } = deps;
  return new Command("logout")
    .description("forget the stored OAuth tokens of a server")
    .argument("<name>", "server name")
    .action(async (name) => {
      const app = await createApp({ plugins: "skip" });
      out.write(
        ((await app.mcp.logout(name)) ? `logged out of ${name}` : `no stored login for ${name}`) + "\n",
      );
    });
}

function mcpAdd({ Command }: typeof Commander, deps: ExtensionDeps) {
  const { args, out } = deps;
  return new Command("add")
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
      out.write(
        await mcpAdd(naviHome(), name, { command, url: opts.url, env: opts.env, headers: opts.header }) +
          "\n",
      );
    });
}

function mcpRemove({ Command }: typeof Commander, deps: ExtensionDeps) {
  const { out } = deps;
  return new Command("remove")
    .description("remove a server from config.json")
    .argument("<name>")
    .action(async (name) => {
      const [{ mcpRemove }, { naviHome }] = await Promise.all([
        import("./commands/mcp.ts"),
        import("../mod.ts"),
      ]);
      out.write(await mcpRemove(naviHome(), name) + "\n");
    });
}

/** `navi plugins list|init|install`. */
export function pluginsCommand(
  { Command }: typeof Commander,
  { createApp, out, exit }: ExtensionDeps,
) {
  const plugins = new Command("plugins").description(
    "list plugins in $NAVI_HOME/plugins, create one, or install a plugin bundle",
  );
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
      out.write(pluginsList(control, Deno.stdout.isTerminal()) + "\n");
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
      out.write(await pluginsInit(naviHome(), name, { template: PLUGIN_TEMPLATE, types: NAVI_D_TS }) + "\n");
    });
  plugins
    .command("install")
    .argument("<folder>", "a plugin bundle (mod.ts, commands/, skills/, agents/, hooks/, .mcp.json)")
    .option("--yes", "install without asking (needed without a terminal)")
    .description("show what a plugin bundle contains and copy it into the plugins directory")
    .action(async (folder, o: { yes?: boolean }) => {
      const { pluginsInstall } = await import("./commands/plugins_install.ts");
      exit(await pluginsInstall(folder, o, { out, interactive: Deno.stdin.isTerminal() }));
    });
  return plugins;
}
