// The commander program: every command's options, arguments and help text, and how each gets its app (`navi
// mcp` and `navi plugins` are in program_extensions.ts). The work of a command lives in commands/ and is
// imported when the command runs. Over 300 lines because it is the rest of the command-line surface in one
// place; each command is its own function.
import type * as Commander from "@commander-js/extra-typings";
import { APPROVAL_MODES, type ApprovalMode, REASONING_EFFORTS } from "../config/mod.ts";
import type { NaviApp } from "../mod.ts";
import { escapeControls, type Sink } from "../output/mod.ts";
import { VERSION } from "../version.ts";
import { mcpCommand, pluginsCommand } from "./program_extensions.ts";

/** What a command needs loaded: plugins (reported, quiet or skipped), and stdio MCP servers started early. */
export interface AppLoad {
  plugins?: "report" | "quiet" | "skip";
  mcp?: boolean;
  /** `ask`: on a terminal, ask whether to trust a folder whose project would run code (the REPL). */
  trust?: "ask";
}

/** What the program's commands get from `main`. */
export interface ProgramDeps {
  createApp(load?: AppLoad): Promise<NaviApp>;
  /** Close this app at exit with the others. */
  track(app: NaviApp): NaviApp;
  exit(code: number): void;
  /** The command line as given (to tell whether `--` was used). */
  args: string[];
  /** Standard output: every byte passes it (secrets redacted, control sequences neutralised). */
  out: Sink;
  /** Standard error, the same way. */
  err: Sink;
}

type Globals = { approval?: ApprovalMode };

/** navi's commander program; commands load what they need when they run. */
export function buildProgram(commander: typeof Commander, deps: ProgramDeps) {
  const { Command, Option } = commander;
  const modes = new Option("--approval <mode>", "who approves tool calls").choices(APPROVAL_MODES);
  const program = new Command("navi")
    .description("A terminal coding agent for any OpenAI-compatible endpoint.")
    .version(VERSION, "-v, --version")
    .option("-p, --print [prompt]", "run one turn and print the answer (stdin, when piped, is appended)")
    .addOption(
      new Option("--output-format <format>", "output of --print").choices(
        ["text", "json", "stream-json"] as const,
      ),
    )
    .addOption(
      new Option(
        "--input-format <format>",
        "input of --print (stream-json: user messages as JSON lines on stdin)",
      )
        .choices(["text", "stream-json"] as const),
    )
    .option(
      "--include-partial-messages",
      "with --output-format stream-json: text deltas as stream_event lines",
    )
    .option("--provider <name>", "a config.json providers entry or a preset (navi providers lists them)")
    .option("--model <name>", "model name")
    .addOption(new Option("--effort <level>", "reasoning effort of the requests").choices(REASONING_EFFORTS))
    .addOption(modes)
    .option("--resume [id]", "resume a saved session (id or unique prefix; without one, pick from a list)")
    .option("-c, --continue", "resume the newest session in this directory")
    .option(
      "--fork-session [turn]",
      "with --resume or --continue: continue in a new session with its history (up to the end of a turn)",
    )
    .argument("[words...]")
    .configureOutput({
      writeOut: (text) => deps.out.write(text),
      writeErr: (text) => deps.err.write(text),
      outputError: (text, write) =>
        write(`navi: ${text.replace(/^error: /, "").trim()} (navi --help lists the commands and options)\n`),
    })
    .action(async (words, given) => {
      if (words.length) throw new Error(unexpectedWords(words));
      const { forkSession, ...rest } = given;
      const opts = { ...rest, fork: forkTurn(forkSession) };
      if (opts.fork !== undefined && !opts.resume && !opts.continue) {
        throw new Error("--fork-session needs --resume <id> or --continue: it forks that session");
      }
      checkPrintOptions(opts);
      const app = await deps.createApp({ mcp: true, trust: opts.print === undefined ? "ask" : undefined });
      if (opts.print !== undefined) {
        deps.exit(await runPrint(app, { ...opts, print: opts.print }));
        return;
      }
      const { runRepl } = await import("./repl.ts");
      deps.exit(await runRepl(app, opts));
    });
  for (
    const build of [
      toolsSubcommand,
      doctorSubcommand,
      sessionsSubcommand,
      rewindSubcommand,
      sandboxSubcommand,
      providersSubcommand,
    ]
  ) {
    program.addCommand(build(commander, deps));
  }
  program.addCommand(acpSubcommand(commander, deps));
  program.addCommand(mcpCommand(commander, deps));
  program.addCommand(pluginsCommand(commander, deps));
  program.addCommand(trustSubcommand(commander, deps));
  program.addCommand(configSubcommand(commander, deps));
  return program;
}

/** `--fork-session [turn]` as ConversationOptions.fork: absent, true (all of the history) or a turn number. */
function forkTurn(value: string | boolean | undefined): boolean | number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return true;
  if (!/^\d+$/.test(value)) {
    throw new Error(`--fork-session takes a turn number, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

type PrintFlags = {
  print?: string | true;
  outputFormat?: "text" | "json" | "stream-json";
  inputFormat?: "text" | "stream-json";
  includePartialMessages?: true;
  resume?: string | true;
};

/** The options that only mean something with -p, and only together. */
function checkPrintOptions(opts: PrintFlags): void {
  const streamOnly = opts.inputFormat === "stream-json"
    ? "--input-format stream-json"
    : opts.includePartialMessages
    ? "--include-partial-messages"
    : undefined;
  if (opts.print === undefined && (opts.outputFormat || opts.inputFormat || streamOnly)) {
    throw new Error("--output-format, --input-format and --include-partial-messages go with -p");
  }
  if (streamOnly && opts.outputFormat !== "stream-json") {
    throw new Error(`${streamOnly} needs --output-format stream-json`);
  }
  if (opts.print !== undefined && opts.resume === true) {
    throw new Error("--resume needs a session id with -p (navi sessions lists them; a unique prefix works)");
  }
}

/** `-p`: one turn printed as text or JSON, or the stream-json event stream. */
async function runPrint<O extends PrintFlags & { print: string | true }>(
  app: NaviApp,
  opts: O,
): Promise<number> {
  const prompt = opts.print === true ? "" : opts.print;
  const resume = opts.resume === true ? undefined : opts.resume;
  if (opts.outputFormat === "stream-json") {
    const { streamJsonCommand } = await import("./commands/stream_json.ts");
    return await streamJsonCommand(app, prompt, { ...opts, resume });
  }
  const { printCommand } = await import("./commands/print.ts");
  return await printCommand(app, prompt, { ...opts, outputFormat: opts.outputFormat, resume });
}

function unexpectedWords(words: string[]): string {
  const text = words.join(" ");
  return `unexpected argument ${JSON.stringify(text)}: to send a prompt use navi -p ${
    JSON.stringify(text)
  } ` +
    "or start navi and type it; commands: tools, sessions, rewind, providers, mcp, plugins, trust, config, doctor, acp";
}

/** `navi tools [--json]`. */
function toolsSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("tools")
    .description("show the tools the next model request would offer")
    .option("--json", "print exactly the `tools` array sent to the model")
    .action(async (opts, cmd) => {
      const { approval } = cmd.optsWithGlobals() as Globals;
      const app = await deps.createApp({ mcp: true });
      const [{ toolsCommand }, { deferralSettings, ToolList }] = await Promise.all([
        import("./commands/tools.ts"),
        import("../mod.ts"),
      ]);
      await app.mcp.start();
      const mode = approval ?? app.config.approval?.mode ?? "ask";
      const list = new ToolList(app.registry, {
        readOnly: () => mode === "plan",
        mode: () => mode,
        settings: deferralSettings(app.config.tools),
        features: app.config.features,
      });
      const view = list.deferral.view();
      deps.out.write(toolsCommand({ view, tools: app.registry, mode }, opts) + "\n");
      for (const s of app.mcp.states()) {
        if (s.error) deps.err.write(`navi: MCP server ${s.name} ${s.status}: ${escapeControls(s.error)}\n`);
      }
    });
}

/** `navi acp`: the Agent Client Protocol on stdin/stdout, for editors. Loads no REPL code. */
function acpSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("acp")
    .description(
      "speak the Agent Client Protocol on stdin/stdout (for editors: Zed, JetBrains, Neovim, Emacs)",
    )
    .action(async (_opts, cmd) => {
      const { approval } = cmd.optsWithGlobals() as Globals;
      const [{ serveAcp }, { builtinTools }, { naviHome }] = await Promise.all([
        import("../acp/mod.ts"),
        import("../../tools/mod.ts"),
        import("../home.ts"),
      ]);
      deps.exit(
        await serveAcp({
          home: naviHome(),
          env: Deno.env,
          builtins: builtinTools,
          input: Deno.stdin.readable,
          output: Deno.stdout.writable,
          log: (line) => deps.err.write(`navi: ${line}\n`),
          ...(approval ? { approval } : {}),
        }),
      );
    });
}

/** `navi trust [--yes] [--revoke] [--list]`. */
function trustSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("trust")
    .description("show what this folder's project files would run, and trust it (asks first on a terminal)")
    .option("--yes", "trust without asking")
    .option("--revoke", "stop trusting this folder")
    .option("--list", "every folder answered, trusted or not")
    .action(async (opts) => {
      const { trustCommand } = await import("./commands/trust.ts");
      deps.exit(await trustCommand(opts, { out: deps.out }));
    });
}

/** `navi config --show [--json]`. */
function configSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("config")
    .description(
      "the config in force here: config.json with the project's settings merged, each value's file",
    )
    .option("--show", "print the merged config (the default)")
    .option("--json", "the merged config as JSON (secrets masked)")
    .action(async (opts) => {
      const { configShow } = await import("./commands/config.ts");
      deps.out.write(await configShow(opts) + "\n");
    });
}

/** `navi doctor`. */
function doctorSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("doctor")
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
        ? deps.track(
          new NaviApp({ home, workspace: Deno.cwd(), config, builtins: builtinTools(), env: Deno.env }),
        )
        : undefined;
      const ctx = { home, config, configError, app, stdin: Deno.stdin, stdout: Deno.stdout, env: Deno.env };
      deps.exit(
        await doctor.runDoctor(ctx, {
          checks: doctor.doctorChecks(),
          write: (line) => deps.out.write(line + "\n"),
          color: Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR"),
        }),
      );
    });
}

/** `navi sessions [--json]`. */
function sessionsSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("sessions")
    .description("saved sessions, newest first")
    .option("--json", "machine-readable output")
    .action(async (opts) => {
      const [{ naviHome }, { sessionsCommand }] = await Promise.all([
        import("../mod.ts"),
        import("./commands/sessions.ts"),
      ]);
      deps.out.write(sessionsCommand(naviHome(), opts) + "\n");
    })
    .addCommand(
      new Command("show")
        .description("one session: its messages, turns and subagent runs (with their transcripts)")
        .argument("<id>", "session id or unique prefix")
        .action(async (id) => {
          const [{ naviHome, resolveSessionId }, { sessionShow }, { makeStyle }] = await Promise.all([
            import("../mod.ts"),
            import("./commands/agents.ts"),
            import("./style.ts"),
          ]);
          const home = naviHome();
          const style = makeStyle(Deno.stdout.isTerminal());
          deps.out.write(sessionShow(home, resolveSessionId(home, id), style) + "\n");
        }),
    );
}

/** `navi rewind <session> --list | --to <turn> [--code|--conversation] [--yes]`. */
function rewindSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("rewind")
    .description("list a session's turns, or put its files and/or conversation back as at the end of a turn")
    .argument("<session>", "session id or unique prefix (navi sessions lists them)")
    .option("--list", "the turns: time, files changed, prompt (the default without --to)")
    .option("--json", "with --list: the turns as JSON")
    .option("--to <turn>", "go back to the end of this turn (0: before the first)")
    .option("--code", "only the files")
    .option("--conversation", "only the conversation")
    .option("--yes", "overwrite files changed since navi left them without asking")
    .action(async (session, opts) => {
      const app = await deps.createApp({ plugins: "skip" });
      const [{ rewindCommand }, { makeStyle }] = await Promise.all([
        import("./commands/rewind.ts"),
        import("./style.ts"),
      ]);
      const style = makeStyle(Deno.stdout.isTerminal());
      deps.exit(await rewindCommand(app, session, { ...opts, out: deps.out, err: deps.err, style }));
    });
}

/** `navi providers [--json]`. */
function providersSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("providers")
    .description("the provider presets and the configured providers: base URL, key variable (set or not)")
    .option("--json", "machine-readable output")
    .action(async (opts) => {
      const app = await deps.createApp({ plugins: "skip" });
      const { providersCommand } = await import("./commands/providers.ts");
      deps.out.write(providersCommand(app.config, { json: opts.json, env: app.env }) + "\n");
    });
}

/** `navi sandbox [--json]`. */
function sandboxSubcommand({ Command }: typeof Commander, deps: ProgramDeps) {
  return new Command("sandbox")
    .description("whether bash runs in the OS sandbox, what it may touch, and a fresh self-test")
    .option("--json", "the status as JSON")
    .action(async (opts) => {
      const app = await deps.createApp({ plugins: "skip" });
      const { sandboxCommand } = await import("./commands/sandbox.ts");
      const from = { sandbox: app.sandbox, settings: app.config.sandbox, workspace: app.workspace };
      const { text, code } = await sandboxCommand(from, opts);
      deps.out.write(text + "\n");
      deps.exit(code);
    });
}
