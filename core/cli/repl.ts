import { join } from "node:path";
import process from "node:process";
import * as readline from "node:readline";
import {
  type Answer,
  ApiError,
  type ApprovalMode,
  type Conversation,
  type Elicit,
  type NaviApp,
  openConversation,
  pluginsDir,
  ProviderError,
  VERSION,
} from "../mod.ts";
import { cacheSlashCommand, usageLine } from "./commands/cache.ts";
import { compactSlashCommand } from "./commands/compact.ts";
import { mcpAdd, mcpRemove, mcpSlashCommands } from "./commands/mcp.ts";
import { pluginSlashCommands } from "./commands/plugins.ts";
import { elicitByQuestions } from "./elicit_form.ts";
import { streamSink, terminalEvents } from "./render.ts";
import { SignalTrap } from "./signals.ts";
import { completer, dispatch, type SlashCommand, type SlashContext, slashTable } from "./slash.ts";
import { makeStyle } from "./style.ts";
import { escapeControls } from "./terminal_text.ts";

/** Options of the interactive session (from the command line). */
export interface ReplOptions {
  provider?: string;
  model?: string;
  approval?: ApprovalMode;
  resume?: string;
  continue?: boolean;
  /** Extra slash commands (plugins, MCP). */
  commands?: SlashCommand[];
}

function loadHistory(file: string): string[] {
  try {
    return Deno.readTextFileSync(file).split("\n").filter(Boolean).reverse().slice(0, 1000);
  } catch {
    return [];
  }
}

/** The interactive session. Returns the exit status. */
export async function runRepl(app: NaviApp, opts: ReplOptions): Promise<number> {
  const interactive = Deno.stdin.isTerminal();
  const style = makeStyle(Deno.stdout.isTerminal());
  const historyFile = join(app.home, "history");
  if (!interactive) await app.startMcp();
  const commands = slashTable([
    compactSlashCommand(),
    cacheSlashCommand(),
    ...pluginSlashCommands(),
    ...mcpSlashCommands(),
    ...(opts.commands ?? []),
  ]);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
    completer: completer(commands),
    history: interactive ? loadHistory(historyFile) : [],
    historySize: 1000,
  });
  rl.setPrompt(style.bold("› "));
  let closed = false;
  rl.on("close", () => (closed = true));
  const prompt = () => {
    if (interactive && !closed) rl.prompt();
  };
  const ask = interactive
    ? ({ tool, summary }: { tool: string; summary: string }) =>
      new Promise<Answer>((resolve) => {
        events.stopSpinner();
        rl.question(
          `${style.yellow("?")} allow ${style.bold(escapeControls(tool))} ${
            escapeControls(summary)
          }  [y]es / [n]o / [a]lways: `,
          (a) => {
            const c = a.trim().toLowerCase()[0];
            resolve(c === "y" ? "yes" : c === "a" ? "always" : "no");
          },
        );
      })
    : undefined;
  const question = (q: string) => new Promise<string>((resolve) => rl.question(q, resolve));
  const elicit: Elicit | undefined = interactive
    ? elicitByQuestions(question, { write: (t) => out.write(t), before: () => events.stopSpinner() })
    : undefined;
  const out = streamSink(Deno.stdout, app.secrets);
  const events = terminalEvents({
    mode: "repl",
    out,
    err: streamSink(Deno.stderr, app.secrets),
    style,
    spinner: Deno.stdout.isTerminal(),
  });
  let convo: Conversation | undefined;
  const open = (resume: boolean) => {
    convo?.close();
    convo = openConversation(app, {
      ...opts,
      ...(resume ? {} : { resume: undefined, continue: false }),
      approval: convo?.policy.mode ?? opts.approval,
      ask,
      events,
    });
    for (const w of convo.warnings) out.write(style.yellow(`navi: warning: ${w}`) + "\n");
  };
  open(true);
  let running: AbortController | null = null;
  const pendingNotices: string[] = [];
  const notify = (line: string) => {
    if (running) return void pendingNotices.push(line);
    out.write(`\r\x1b[K${line}\n`);
    if (!closed) rl.prompt(true);
  };
  if (interactive) {
    app.startMcp({ elicit })
      .then(() => {
        for (const s of app.mcpStates()) {
          if (s.error) {
            notify(style.yellow(`navi: MCP server ${s.name} ${s.status}: ${s.error} (/mcp for details)`));
          }
        }
      })
      .catch((err) => notify(style.red(`navi: MCP: ${(err as Error).message}`)));
  }
  let exiting = false;
  let lastInterrupt = 0;
  const ctx: SlashContext = {
    conversation: () => convo!,
    tools: app.registry,
    plugins: {
      dir: pluginsDir(app.home),
      reports: () => app.plugins.reports,
      reload: () => app.loadPlugins(),
    },
    mcp: {
      states: () => app.mcpStates(),
      reload: () => app.reloadMcp({ elicit }),
      add: (name, spec) => mcpAdd(app.home, name, spec),
      remove: (name) => mcpRemove(app.home, name),
    },
    out,
    style,
    get signal() {
      return running?.signal ?? new AbortController().signal;
    },
    newConversation: () => {
      open(false);
      out.write(style.dim(`new conversation ${convo!.agent.session.meta.id}`) + "\n");
    },
    exit: () => {
      exiting = true;
      if (!closed) rl.close();
    },
  };
  using trap = new SignalTrap(["SIGTERM", "SIGHUP"], {
    onSignal: () => {
      running?.abort();
      ctx.exit();
    },
  });
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      return;
    }
    const now = Date.now();
    if (rl.line === "" && now - lastInterrupt < 2000) return ctx.exit();
    lastInterrupt = now;
    rl.write(null, { ctrl: true, name: "u" });
    out.write(style.dim("\n(press Ctrl-C again to exit)\n"));
    prompt();
  });
  if (interactive) {
    out.write(
      style.dim(`navi ${VERSION} · ${app.workspace} · approval ${convo!.policy.mode} · /help for commands`) +
        "\n",
    );
    if (convo!.policy.mode === "auto") {
      out.write(style.yellow("warning: approval mode auto runs every tool without asking") + "\n");
    }
    app.sandbox.warning().then((w) => w && notify(style.yellow(w)));
  }
  prompt();
  for await (const raw of rl) {
    const line = raw.trim();
    if (line && interactive) Deno.writeTextFileSync(historyFile, line + "\n", { append: true });
    if (!line) {
      prompt();
      continue;
    }
    if (line.startsWith("/")) {
      running = new AbortController();
      try {
        if (!(await dispatch(commands, line, ctx))) {
          out.write(`unknown command ${line.split(" ")[0]}; try /help\n`);
        }
      } catch (err) {
        out.write(style.red(`navi: ${err instanceof Error ? err.message : String(err)}`) + "\n");
      } finally {
        running = null;
      }
      for (const notice of pendingNotices.splice(0)) out.write(notice + "\n");
      if (exiting) break;
      prompt();
      continue;
    }
    running = new AbortController();
    try {
      const result = await convo!.agent.run(line, running.signal);
      if (result.aborted) out.write(style.yellow("\n(interrupted)") + "\n");
      const u = result.usage;
      if (u.total_tokens && interactive) out.write(style.dim(usageLine(u)) + "\n");
    } catch (err) {
      events.stopSpinner();
      const message = err instanceof ApiError || err instanceof ProviderError
        ? err.message
        : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
      out.write(style.red(`navi: ${message}`) + "\n");
    } finally {
      running = null;
    }
    for (const line of pendingNotices.splice(0)) out.write(line + "\n");
    prompt();
  }
  if (!closed) rl.close();
  if (interactive) out.write("\n");
  if (trap.received) streamSink(Deno.stderr).write(trap.describe() + "\n");
  return trap.status ?? 0;
}
