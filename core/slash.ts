import { APPROVAL_MODES, type ApprovalMode } from "./config.ts";
import type { Sink } from "./printer.ts";
import type { Style } from "./output.ts";
import type { NaviApp } from "./app.ts";
import type { Conversation } from "./conversation.ts";
import { table } from "./output.ts";

/** What a slash command can reach. */
export interface SlashContext {
  app: NaviApp;
  convo(): Conversation;
  out: Sink;
  style: Style;
  /** Start a new conversation (a new session). */
  newConversation(): void;
  /** Aborted when the user presses Ctrl-C while the command runs. */
  signal: AbortSignal;
  exit(): void;
}

/** One row of the slash-command table: help and completion are derived from it. */
export interface SlashCommand {
  name: string;
  subcommands?: string[];
  args?: string;
  help: string;
  run(args: string, ctx: SlashContext): void | Promise<void>;
}

/** The built-in slash commands; features (plugins, MCP) add rows with `extra`. */
export function slashTable(extra: SlashCommand[] = []): SlashCommand[] {
  const commands: SlashCommand[] = [
    {
      name: "/help",
      help: "show this help",
      run: (_a, ctx) => ctx.out.write(helpText(commands) + "\n"),
    },
    { name: "/clear", help: "start a new conversation", run: (_a, ctx) => ctx.newConversation() },
    {
      name: "/compact",
      help: "summarize the conversation and continue in a new one that starts from the summary",
      run: async (_a, ctx) => {
        const old = ctx.convo().agent.session.meta.id;
        const summary = await ctx.convo().agent.summarize(ctx.signal);
        if (ctx.signal.aborted || !summary) {
          ctx.out.write("compact cancelled; the conversation is unchanged\n");
          return;
        }
        ctx.newConversation();
        ctx.convo().agent.session.addMessage({
          role: "user",
          content: `<conversation-summary session="${old}">\n${summary}\n</conversation-summary>`,
        });
        ctx.out.write(ctx.style.dim(`compacted ${old} into this conversation`) + "\n");
      },
    },
    {
      name: "/tools",
      help: "the tools offered to the model, with the list's fingerprint",
      run: (_a, { convo, app, out, style }) => {
        const { pool } = convo();
        const list = pool.current();
        out.write(
          table(list.map((t) => {
            const source = app.registry.sourceOf(t.function.name);
            const from = !source || source.kind === "builtin"
              ? "built-in"
              : `${source.kind} ${source.origin}`;
            return [t.function.name, app.registry.get(t.function.name)?.approval ?? "?", from];
          })) +
            `\n${style.dim(`${list.length} tools, fingerprint ${pool.fingerprint(list)}`)}\n`,
        );
      },
    },
    {
      name: "/model",
      args: "[name]",
      help: "show the model, or switch it from the next request",
      run: (args, { convo, out }) => {
        const { llm } = convo();
        if (args) llm.overrides.model = args;
        try {
          const c = llm.current();
          out.write(`${args ? "model set to" : "model:"} ${c.model} (provider ${c.name})\n`);
        } catch (err) {
          out.write(`${args ? `model set to ${args}; ` : ""}${(err as Error).message}\n`);
        }
      },
    },
    {
      name: "/approval",
      subcommands: [...APPROVAL_MODES],
      help: "show or set the approval mode (plan, ask, auto)",
      run: (args, { convo, app, out }) => {
        if (args) {
          if (!(APPROVAL_MODES as readonly string[]).includes(args)) {
            out.write(`unknown mode ${JSON.stringify(args)}; use plan, ask or auto\n`);
            return;
          }
          convo().setMode(args as ApprovalMode);
        }
        out.write(`approval mode: ${app.approvalMode}\n`);
      },
    },
    ...extra,
    { name: "/exit", help: "leave navi", run: (_a, ctx) => ctx.exit() },
  ];
  return commands;
}

/** Every completion candidate: each command and each `command subcommand`. */
export function completionWords(commands: SlashCommand[]): string[] {
  return commands.flatMap((c) => [c.name, ...(c.subcommands ?? []).map((s) => `${c.name} ${s}`)]);
}

/** A node:readline completer over the table. */
export function completer(commands: SlashCommand[]): (line: string) => [string[], string] {
  const words = completionWords(commands);
  return (line) => {
    if (!line.startsWith("/")) return [[], line];
    const hits = words.filter((w) => w.startsWith(line));
    return [hits, line];
  };
}

/** The `/help` text: one line per command with its subcommands. */
export function helpText(commands: SlashCommand[]): string {
  return table(commands.map((c) => [
    [c.name, c.subcommands ? `[${c.subcommands.join("|")}]` : c.args ?? ""].filter(Boolean).join(" "),
    c.help,
  ]));
}

/** Run a slash command line; returns false when the line names no command. */
export async function dispatch(commands: SlashCommand[], line: string, ctx: SlashContext): Promise<boolean> {
  const [name, ...rest] = line.trim().split(/\s+/);
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) return false;
  await cmd.run(rest.join(" "), ctx);
  return true;
}
