// The interactive session: start-up, the read loop, one step at a time (a turn, a slash command, a `!command`).
// Over 300 lines because the Repl class is the one owner of the session's interactive state (the conversation,
// the running step, notices held during a step); rendering, input and slash commands live in their own files.
import { join } from "node:path";
import {
  type ApprovalMode,
  type AskUser,
  type Conversation,
  type Elicit,
  expandMentions,
  listSessions,
  type NaviApp,
  openConversation,
  type ReasoningEffort,
  SessionError,
  startConversation,
  type StartupLine,
  type TodoItem,
} from "../mod.ts";
import { askApproval } from "./approval_prompt.ts";
import { promptSlashCommands, replacePromptRows } from "./commands/mcp_prompts.ts";
import { extensionRows } from "./commands/extensions.ts";
import { pickSession, resumeSummary } from "./commands/resume.ts";
import { turnUsageLine } from "./commands/usage.ts";
import { runningShells, runningShellsLine } from "./commands/shells.ts";
import { todoChecklist, withPlanChecklist } from "./commands/todo.ts";
import { elicitByQuestions } from "./elicit_form.ts";
import { banner } from "./first_run.ts";
import { LazyMarkdown } from "./markdown_loader.ts";
import { History } from "./history.ts";
import { terminalNotifier } from "./notify.ts";
import { errorLine, terminalEvents } from "./printer.ts";
import { escapeControls, type Sink, streamSink } from "../output/mod.ts";
import { replCompleter } from "./repl_complete.ts";
import { replCommands, slashContext } from "./repl_context.ts";
import { interactiveIO, pipedIO, type ReplIO } from "./repl_io.ts";
import { runShellEscape } from "./shell_escape.ts";
import { SignalTrap } from "./signals.ts";
import { dispatch, type SlashCommand, type SlashContext } from "./slash.ts";
import { makeStyle, type Style } from "./style.ts";
import { VERSION } from "../version.ts";

/** Options of the interactive session (from the command line). */
export interface ReplOptions {
  provider?: string;
  model?: string;
  effort?: ReasoningEffort;
  approval?: ApprovalMode;
  /** A session id (or unique prefix) to resume; `true`: pick one from a list. */
  resume?: string | true;
  continue?: boolean;
  /** Fork the resumed session instead (`--fork-session [turn]`). */
  fork?: boolean | number;
  /** Extra slash commands (plugins, MCP). */
  commands?: SlashCommand[];
}

/** The interactive session (a raw-mode terminal, or lines from a pipe). Returns the exit status. */
export async function runRepl(app: NaviApp, opts: ReplOptions): Promise<number> {
  const interactive = Deno.stdin.isTerminal();
  const style = makeStyle(Deno.stdout.isTerminal());
  const io = interactive
    ? interactiveIO({ history: new History(join(app.home, "history")), style })
    : pipedIO();
  try {
    return await new Repl(app, { opts, io, style }).run();
  } finally {
    io.close();
  }
}

class Repl {
  #app: NaviApp;
  #opts: ReplOptions;
  #io: ReplIO;
  #style: Style;
  #out: Sink;
  #events: ReturnType<typeof terminalEvents>;
  #commands: SlashCommand[];
  #convo!: Conversation;
  #running: AbortController | null = null;
  #notices: string[] = [];
  #shellOutputs: string[] = [];
  #models?: string[];
  #markdown = new LazyMarkdown();
  #exiting = false;
  #collisions: string[] = [];

  constructor(app: NaviApp, parts: { opts: ReplOptions; io: ReplIO; style: Style }) {
    this.#app = app;
    this.#opts = parts.opts;
    this.#io = parts.io;
    this.#style = parts.style;
    this.#out = streamSink(Deno.stdout, app.secrets);
    const term = parts.io.term;
    const printer = terminalEvents({
      mode: "repl",
      out: this.#out,
      err: streamSink(Deno.stderr, app.secrets),
      style: parts.style,
      spinner: Deno.stdout.isTerminal(),
      columns: term && (() => term.columns()),
      markdown: term && Deno.stdout.isTerminal()
        ? (write) =>
          this.#markdown.stream({
            write,
            style: parts.style,
            columns: () => term.columns(),
            redact: (t) => app.secrets.redact(t),
          })
        : undefined,
      statusExtra: () => runningShells(this.#convo?.shells.running() ?? 0),
    });
    const render = (items: readonly TodoItem[]) =>
      todoChecklist(items, { style: parts.style, width: term?.columns() });
    this.#events = Object.assign(withPlanChecklist(printer, render), {
      waitingForUser: terminalNotifier({
        sink: this.#out,
        settings: app.config.notify,
        env: app.env,
        terminal: parts.io.interactive && Deno.stdout.isTerminal(),
      }),
    });
    const taken = replCommands(this.#opts.commands).map((c) => c.name);
    const ext = extensionRows(app.extensions, taken);
    this.#collisions = ext.problems;
    this.#commands = replCommands([...(this.#opts.commands ?? []), ...ext.rows]);
  }

  #ask(): AskUser | undefined {
    const approval = this.#io.approval;
    if (!approval) return undefined;
    const out = { ...approval.out, write: (t: string) => approval.out.write(this.#app.secrets.redact(t)) };
    return async (question) => {
      await Promise.resolve();
      this.#events.stopSpinner();
      try {
        return await askApproval(question, { ...approval, out, style: this.#style }, {
          interrupt: () => this.#running?.abort(),
        });
      } finally {
        this.#events.resumeSpinner();
      }
    };
  }

  /** Switch to a new, resumed or forked conversation (`/clear`, `/resume`, `/fork`). */
  #open(resume?: { id?: string; fork?: boolean | number }): void {
    void this.#convo?.close(resume ? "other" : "clear");
    this.#convo = openConversation(this.#app, {
      ...this.#opts,
      cleared: this.#convo !== undefined && !resume,
      resume: resume?.id,
      fork: resume?.fork,
      continue: false,
      approval: this.#convo?.policy.mode ?? this.#opts.approval,
      ask: this.#ask(),
      events: this.#events,
    });
    for (const w of this.#convo.warnings) this.#report({ kind: "warning", text: w });
    this.#opened();
  }

  #opened(): void {
    if (!this.#convo.resumed) return;
    const term = this.#io.term;
    const render = term &&
      ((text: string) => this.#markdown.render(text, { style: this.#style, columns: term.columns() - 2 }));
    const session = this.#convo.agent.session;
    this.#out.write(resumeSummary(session, { style: this.#style, render }) + "\n");
    if (session.todos.length) this.#out.write(todoChecklist(session.todos, { style: this.#style }) + "\n");
  }

  /** A start-up line: yellow when it is a warning; above the prompt while a step runs. */
  #report = (line: StartupLine) => {
    const text = `navi: ${line.kind === "warning" ? "warning: " : ""}${escapeControls(line.text)}`;
    this.#notify(line.kind === "warning" ? this.#style.yellow(text) : text);
  };

  /** The one start-up sequence: MCP (awaited when piped), the first conversation, what the user should know. */
  async #start(elicit: Elicit | undefined): Promise<void> {
    const io = this.#io;
    let id = typeof this.#opts.resume === "string" ? this.#opts.resume : undefined;
    if (this.#opts.resume === true) {
      if (!io.interactive) {
        throw new SessionError("--resume without an id needs a terminal; navi sessions lists ids");
      }
      id = await pickSession(this.#sessions(), {
        ask: io.ask,
        choose: io.choose,
        out: this.#out,
        style: this.#style,
      });
    }
    this.#convo = await startConversation(this.#app, {
      ...this.#opts,
      resume: id,
      continue: this.#opts.continue ?? false,
      ask: this.#ask(),
      events: this.#events,
      mcp: io.interactive ? "background" : "await",
      elicit,
      terminal: io.interactive,
      report: this.#report,
      onMcpReady: () => this.#syncMcp(),
    });
    if (this.#convo.resumed && io.term) await this.#markdown.preload();
    this.#opened();
    for (const text of this.#collisions) this.#report({ kind: "warning", text });
    const style = this.#style;
    for (const line of this.#app.plugins.announcements()) this.#out.write(style.dim(`navi: ${line}`) + "\n");
    this.#app.plugins.subscribe((e) => this.#notify(style.yellow(`navi: ${escapeControls(e.message)}`)));
    if (io.interactive) {
      this.#out.write(banner({ app: this.#app, convo: this.#convo, style, version: VERSION }) + "\n");
      void this.#markdown.preload();
    }
  }

  #notify = (line: string) => {
    if (this.#running) return void this.#notices.push(line);
    this.#io.notify(this.#app.secrets.redact(line) + "\n", (t) => this.#out.write(t));
  };

  async run(): Promise<number> {
    const style = this.#style;
    const io = this.#io;
    using trap = new SignalTrap(["SIGTERM", "SIGHUP"], {
      onSignal: () => {
        this.#exiting = true;
        this.#running?.abort();
        io.close();
      },
    });
    const elicit = io.interactive
      ? elicitByQuestions(async (q) => (await io.ask(q)) ?? "", {
        write: (t) => this.#out.write(t),
        before: () => this.#events.stopSpinner(),
      })
      : undefined;
    await this.#start(elicit);
    const ctx = this.#context(elicit);
    const complete = replCompleter({
      commands: this.#commands,
      mentions: this.#app.mentions,
      models: () => this.#models,
      loadModels: async () => (this.#models = await this.#convo.llm.listModels({ timeoutMs: 5000 })),
    });
    let lastInterrupt = 0;
    while (!this.#exiting) {
      this.#app.trace?.mark("first prompt");
      const r = await io.read({ prompt: style.bold("› "), complete });
      if (r.kind === "eof") break;
      if (r.kind === "double-escape") {
        await this.#step(() => this.#slash("/rewind", ctx));
        continue;
      }
      if (r.kind === "interrupt") {
        if (!r.text.trim()) {
          if (Date.now() - lastInterrupt < 2000) break;
          lastInterrupt = Date.now();
          this.#out.write(style.dim("(press Ctrl-C again to exit)") + "\n");
        }
        continue;
      }
      const line = io.interactive ? r.text.replace(/^\s*\n/, "").trimEnd() : r.text.trim();
      if (!line.trim()) continue;
      if (line.startsWith("/")) await this.#step(() => this.#slash(line, ctx));
      else if (line.startsWith("!") && line.length > 1) {
        await this.#step(() => this.#shell(line.slice(1).trim()));
      } else await this.#step(() => this.#turn(line));
      for (const notice of this.#notices.splice(0)) this.#out.write(notice + "\n");
    }
    if (io.interactive) {
      this.#out.write("\n");
      const session = this.#convo.agent.session;
      if (session.written) {
        this.#out.write(
          style.dim(`resume this conversation with navi -c (or navi --resume ${session.meta.id})`) + "\n",
        );
      }
    }
    if (trap.received) streamSink(Deno.stderr).write(trap.describe() + "\n");
    return trap.status ?? 0;
  }

  /** MCP prompts as `/mcp:<server>:<prompt>` rows of the slash table (after connect, reload or login). */
  async #syncMcp(): Promise<void> {
    const rows = await this.#app.mcp.promptCommands().catch(() => []);
    replacePromptRows(
      this.#commands,
      promptSlashCommands(rows, (cmd, args) => this.#app.mcp.runPrompt(cmd, args)),
    );
  }

  #sessions() {
    return listSessions(this.#app.home).filter((s) => s.cwd === this.#app.workspace);
  }

  async #step(work: () => Promise<void>): Promise<void> {
    this.#running = new AbortController();
    const running = this.#running;
    try {
      await this.#io.during(() => running.abort(), work);
    } catch (err) {
      this.#events.stopSpinner();
      this.#events.resumeSpinner();
      this.#out.write(this.#style.red(`navi: ${errorLine(err)}`) + "\n");
    } finally {
      this.#running = null;
    }
  }

  async #slash(line: string, ctx: SlashContext): Promise<void> {
    if (!(await dispatch(this.#commands, line, ctx))) {
      this.#out.write(`unknown command ${line.split(/\s/)[0]}; try /help\n`);
    }
  }

  async #shell(command: string): Promise<void> {
    const { policy } = this.#convo;
    const output = await runShellEscape(command, {
      registry: this.#app.registry,
      policy,
      workspace: this.#app.workspace,
      childEnv: () => this.#app.childEnv(),
      out: this.#out,
      style: this.#style,
      signal: this.#running!.signal,
    });
    if (output !== undefined) this.#shellOutputs.push(this.#app.secrets.redact(output));
  }

  async #turn(line: string): Promise<void> {
    const style = this.#style;
    const { text, attached, problems } = await expandMentions(line, this.#app.mentions);
    for (const p of problems) this.#out.write(style.yellow(`navi: warning: ${escapeControls(p)}`) + "\n");
    if (attached.length) this.#out.write(style.dim(`attached @${attached.join(", @")}`) + "\n");
    if (this.#io.term) void this.#markdown.preload({ withHighlighting: style.on });
    const message = [...this.#shellOutputs.splice(0), text].join("\n\n");
    const result = await this.#convo.agent.run(message, this.#running!.signal);
    if (result.aborted) this.#out.write(style.yellow("(interrupted)") + "\n");
    if (result.usage.total_tokens && this.#io.interactive) {
      this.#out.write(
        style.dim(turnUsageLine(result.usage, { llm: this.#convo.llm, prices: this.#app.config.prices })) +
          "\n",
      );
    }
    const shells = runningShellsLine(this.#convo.shells.running());
    if (shells) this.#out.write(style.dim(shells) + "\n");
  }

  #context(elicit: Elicit | undefined): SlashContext {
    return slashContext(this.#app, {
      elicit,
      conversation: () => this.#convo,
      out: this.#out,
      style: this.#style,
      signal: () => this.#running?.signal ?? new AbortController().signal,
      newConversation: () => {
        this.#open();
        this.#out.write(this.#style.dim(`new conversation ${this.#convo.agent.session.meta.id}`) + "\n");
      },
      exit: () => void (this.#exiting = true),
      term: this.#io.term,
      sessions: () => this.#sessions(),
      resume: (id) => this.#open({ id }),
      fork: (turn) => this.#open({ id: this.#convo.agent.session.meta.id, fork: turn ?? true }),
      ask: (prompt) => this.#io.ask(prompt),
      choose: this.#io.choose,
      modelsListed: (ids) => void (this.#models = ids),
      submit: (text) => this.#turn(text),
      mcpChanged: () => this.#syncMcp(),
      reasoning: this.#events.reasoningDisplay,
    });
  }
}
