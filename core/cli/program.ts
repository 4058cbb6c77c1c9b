// The commander program: navi's options and top-level commands (MCP and plugin commands in program_groups.ts).
import type * as Commander from "@commander-js/extra-typings";
import { APPROVAL_MODES, type ApprovalMode } from "../config_types.ts";
import { VERSION } from "../version.ts";
import { mcpCommand, pluginsCommand } from "./program_groups.ts";
import type { AppLoad, ProgramDeps } from "./program_types.ts";
import { terminalSafe } from "../output/neutralise.ts";

export type { AppLoad, ProgramDeps };

type Globals = { approval?: ApprovalMode };

/** navi's commander program; commands load what they need when they run. */
export function buildProgram(commander: typeof Commander, { createApp, track, exit, args }: ProgramDeps) {
  const { Command, Option } = commander;
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

  program.addCommand(mcpCommand(commander, { createApp, exit, args }));
  program.addCommand(pluginsCommand(commander, { createApp }));
  return program;
}
