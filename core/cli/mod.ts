/**
 * navi's terminal front: the commander program. `main.ts` loads this module for everything but
 * `--version`; nothing outside `core/cli/` imports it.
 * @module
 */
import type * as Commander from "@commander-js/extra-typings";
import { APPROVAL_MODES, type ApprovalMode } from "../config_types.ts";
import type { NaviApp } from "../mod.ts";
import type { StdioProcess } from "../mcp/stdio_process.ts";
import { VERSION } from "../version.ts";
import { installCrashGuard } from "./crash_guard.ts";
import { terminalSafe } from "./terminal_text.ts";

type Globals = { approval?: ApprovalMode };

/**
 * Run navi's CLI with `args` (without the program name); returns the exit status. The app it creates (and
 * with it every MCP connection) is closed here, once, whatever the command did.
 */
export async function main(args: string[]): Promise<number> {
  let app: NaviApp | undefined;
  // Stdio MCP servers start first, before commander, the engine, plugins and the SDKs load, so that their own
  // start-up (often the longest part of a one-shot run) overlaps navi's. The app adopts them once the config
  // proves valid; processes nobody adopted are ended below.
  let early = connectsMcp(args) ? await startStdioServers() : undefined;
  const commander = await import("@commander-js/extra-typings");
  const createApp = async (load: AppLoad = {}): Promise<NaviApp> => {
    const prespawned = load.mcp ? early : undefined;
    if (load.mcp) early = undefined;
    try {
      const [{ loadConfig, naviHome, NaviApp }, { builtinTools }] = await Promise.all([
        import("../mod.ts"),
        import("../../tools/mod.ts"),
      ]);
      const home = naviHome();
      const config = await loadConfig(home);
      if (Object.keys(config.mcp_servers ?? {}).length) import("../mcp/mod.ts").catch(() => {});
      app = new NaviApp({ home, workspace: Deno.cwd(), config, builtins: builtinTools(), prespawned });
    } catch (err) {
      await Promise.all([...(prespawned?.values() ?? [])].map((p) => p.stop()));
      throw err;
    }
    if (load.plugins === "skip") return app;
    const reports = await app.loadPlugins();
    if ((load.plugins ?? "report") === "report") {
      for (const r of reports) {
        if (r.status === "failed") {
          console.error(terminalSafe(app.secrets.redact(`navi: plugin ${r.file} skipped: ${r.error}`)));
        }
      }
    }
    return app;
  };
  let status = 0;
  const program = buildProgram(commander, {
    createApp,
    track: (a) => (app = a),
    exit: (code) => (status = code),
    args,
  });
  const redact = (text: string) => app?.secrets.redact(text) ?? text;
  const removeGuard = installCrashGuard({
    line: (text) => console.error(terminalSafe(redact(text))),
    log: (text) => app?.log("errors.log", text),
  });
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (err) {
    const { ConfigError, SessionError } = await import("../mod.ts");
    const message = `navi: ${err instanceof Error ? err.message : String(err)}`;
    console.error(terminalSafe(app ? app.secrets.redact(message) : message));
    status = err instanceof ConfigError || err instanceof SessionError ? 2 : 1;
  } finally {
    await app?.close();
    await Promise.all([...(early?.values() ?? [])].map((p) => p.stop()));
    removeGuard();
  }
  return status;
}

const VALUE_OPTIONS = new Set([
  "-p",
  "--print",
  "--output-format",
  "--provider",
  "--model",
  "--approval",
  "--resume",
]);

/**
 * Whether a command line runs a command that connects MCP servers (the REPL, `-p`, `tools`, `mcp list`,
 * `mcp resources`), judged before commander loads. A wrong guess costs time, never correctness: servers
 * started for nothing are ended, and a command that was not foreseen starts its servers itself.
 */
export function connectsMcp(args: readonly string[]): boolean {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (["-h", "--help", "-v", "--version"].includes(a)) return false;
    if (a.startsWith("-")) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  if (!words.length) return true;
  if (words[0] === "tools") return true;
  return words[0] === "mcp" && (words[1] === undefined || words[1] === "list" || words[1] === "resources");
}

/** What a command needs loaded: plugins (reported, quiet or skipped), and stdio MCP servers started early. */
interface AppLoad {
  plugins?: "report" | "quiet" | "skip";
  mcp?: boolean;
}

/** Start the configured stdio MCP servers (see prespawnStdioServers) and begin loading the MCP SDK. */
async function startStdioServers(): Promise<Map<string, StdioProcess>> {
  const [{ prespawnStdioServers }, { naviHome }] = await Promise.all([
    import("../mcp/prespawn.ts"),
    import("../home.ts"),
  ]);
  const early = prespawnStdioServers({ home: naviHome(), workspace: Deno.cwd(), env: Deno.env });
  if (early.size) import("../mcp/mod.ts").catch(() => {});
  return early;
}

interface ProgramDeps {
  createApp(load?: AppLoad): Promise<NaviApp>;
  /** Close this app at exit with the others. */
  track(app: NaviApp): NaviApp;
  exit(code: number): void;
  /** The command line as given (to tell whether `--` was used). */
  args: string[];
}

function buildProgram({ Command, Option }: typeof Commander, { createApp, track, exit, args }: ProgramDeps) {
  const modes = new Option("--approval <mode>", "who approves tool calls").choices(APPROVAL_MODES);
  const program = new Command("navi")
    .description("A terminal coding agent for any OpenAI-compatible endpoint.")
    .version(VERSION, "-v, --version")
    .option("-p, --print <prompt>", "run one turn and print the answer (stdin, when piped, is appended)")
    .addOption(new Option("--output-format <format>", "output of --print").choices(["text", "json"] as const))
    .option("--provider <name>", "provider from config.json providers")
    .option("--model <name>", "model name")
    .addOption(modes)
    .option("--resume [id]", "resume a saved session (id or unique prefix; without one, pick from a list)")
    .option("-c, --continue", "resume the newest session in this directory")
    .argument("[words...]")
    .configureOutput({
      outputError: (text, write) =>
        write(`navi: ${text.replace(/^error: /, "").trim()} (navi --help lists the commands and options)\n`),
    })
    .action(async (words, opts) => {
      if (words.length) {
        const text = words.join(" ");
        throw new Error(
          `unexpected argument ${JSON.stringify(text)}: to send a prompt use navi -p ${
            JSON.stringify(text)
          } ` +
            "or start navi and type it; commands: tools, sessions, mcp, plugins, doctor",
        );
      }
      const app = await createApp({ mcp: true });
      if (opts.print !== undefined) {
        const { printCommand } = await import("./commands/print.ts");
        if (opts.resume === true) {
          throw new Error(
            "--resume needs a session id with -p (navi sessions lists them; a unique prefix works)",
          );
        }
        exit(await printCommand(app, opts.print, { ...opts, resume: opts.resume }));
        return;
      }
      const { runRepl } = await import("./repl.ts");
      exit(await runRepl(app, opts));
    });

  program
    .command("tools")
    .description("show the tools the next model request would offer")
    .option("--json", "print exactly the `tools` array sent to the model")
    .action(async (opts, cmd) => {
      const { approval } = cmd.optsWithGlobals() as Globals;
      const app = await createApp({ mcp: true });
      const { toolsCommand } = await import("./commands/tools.ts");
      await app.startMcp();
      const mode = approval ?? app.config.approval?.mode ?? "ask";
      const { deferralSettings, ToolDeferral } = await import("../mod.ts");
      const pool = app.createPool({ readOnly: () => mode === "plan" });
      const settings = deferralSettings(app.config.tools);
      const view = new ToolDeferral(pool, app.registry, { settings }).view();
      console.log(terminalSafe(app.secrets.redact(toolsCommand({ view, tools: app.registry, mode }, opts))));
      for (const s of app.mcpStates()) {
        if (s.error) {
          console.error(
            terminalSafe(app.secrets.redact(`navi: MCP server ${s.name} ${s.status}: ${s.error}`)),
          );
        }
      }
    });

  program
    .command("doctor")
    .description("check config, provider (a /models request), MCP servers, plugins and the terminal")
    .action(async () => {
      const [{ naviHome, NaviApp }, { builtinTools }, doctor] = await Promise.all([
        import("../mod.ts"),
        import("../../tools/mod.ts"),
        import("./commands/doctor.ts"),
      ]);
      const home = naviHome();
      const { config, configError } = await doctor.doctorConfig(home);
      const app = config
        ? track(new NaviApp({ home, workspace: Deno.cwd(), config, builtins: builtinTools() }))
        : undefined;
      const ctx = { home, config, configError, app, stdin: Deno.stdin, stdout: Deno.stdout, env: Deno.env };
      const redact = (line: string) => app?.secrets.redact(line) ?? line;
      exit(
        await doctor.runDoctor(ctx, {
          checks: doctor.doctorChecks(),
          write: (line) => console.log(redact(line)),
          color: Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR"),
        }),
      );
    });

  program
    .command("sessions")
    .description("saved sessions, newest first")
    .option("--json", "machine-readable output")
    .action(async (opts) => {
      const [{ naviHome }, { sessionsCommand }] = await Promise.all([
        import("../mod.ts"),
        import("./commands/sessions.ts"),
      ]);
      console.log(sessionsCommand(naviHome(), opts));
    });

  program
    .command("sandbox")
    .description("whether bash runs in the OS sandbox, what it may touch, and a fresh self-test")
    .option("--json", "the status as JSON")
    .action(async (opts) => {
      const app = await createApp({ plugins: "skip" });
      const { sandboxCommand } = await import("./commands/sandbox.ts");
      const from = { sandbox: app.sandbox, settings: app.config.sandbox, workspace: app.workspace };
      const { text, code } = await sandboxCommand(from, opts);
      console.log(text);
      exit(code);
    });

  const collect = (value: string, previous: string[]) => [...previous, value];
  const mcp = program.command("mcp").description("MCP servers in config.json");
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

  const plugins = program.command("plugins").description("list plugins in $NAVI_HOME/plugins, or create one");
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
  return program;
}
