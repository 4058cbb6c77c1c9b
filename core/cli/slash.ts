import {
  APPROVAL_MODES,
  type ApprovalMode,
  type Conversation,
  fnv1a,
  type McpServerState,
  type PluginReport,
  type ToolRegistry,
} from "../mod.ts";
import type { Sink } from "./render.ts";
import { type Style, table } from "./style.ts";

/** What `/plugins` can do. */
export interface PluginControl {
  /** The plugins directory. */
  dir: string;
  /** One report per file of the last load. */
  reports(): PluginReport[];
  /** Rescan the directory; tools change from the next request. */
  reload(): Promise<PluginReport[]>;
}

/** What `/mcp` can do. */
export interface McpControl {
  states(): McpServerState[];
  /** Read config.json again and reconnect every server. */
  reload(): Promise<void>;
  /** Add a server to config.json (atomically); returns the line to show. */
  add(
    name: string,
    spec: { command?: string[]; url?: string; env?: string[]; headers?: string[] },
  ): Promise<string>;
  /** Remove a server from config.json; returns the line to show. */
  remove(name: string): Promise<string>;
}

/** What a slash command can reach: the conversation and narrow controls, never the whole app or config. */
export interface SlashContext {
  /** The current conversation (it changes with `/clear` and `/compact`). */
  conversation(): Conversation;
  /** Where tools come from and their approval classes (read-only use). */
  tools: Pick<ToolRegistry, "get" | "sourceOf">;
  plugins: PluginControl;
  mcp: McpControl;
  out: Sink;
  style: Style;
  /** Start a new conversation (a new session) in the current approval mode. */
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

/** The built-in slash commands; features (plugins, MCP, /compact) add rows with `extra`. */
export function slashTable(extra: SlashCommand[] = []): SlashCommand[] {
  const commands: SlashCommand[] = [
    {
      name: "/help",
      help: "show this help",
      run: (_a, ctx) => ctx.out.write(helpText(commands) + "\n"),
    },
    { name: "/clear", help: "start a new conversation", run: (_a, ctx) => ctx.newConversation() },
    {
      name: "/tools",
      help: "the tools offered to the model, with the array's fingerprint and the tools outside it",
      run: (_a, { conversation, tools, out, style }) => {
        const view = conversation().agent.deferral.view();
        const row = (name: string, where: string) => {
          const source = tools.sourceOf(name);
          const from = !source
            ? "navi (meta)"
            : source.kind === "builtin"
            ? "built-in"
            : `${source.kind} ${source.origin}`;
          return [name, tools.get(name)?.approval ?? "-", where ? `${from} ${where}` : from];
        };
        const rows = [
          ...view.tools.map((t) => row(t.function.name, "")),
          ...view.deferred.map((n) => row(n, style.yellow("(deferred: call_tool)"))),
          ...view.withdrawn.map((n) => row(n, style.yellow("(withdrawn)"))),
        ];
        const more = view.searchable.length ? `, ${view.searchable.length} more through find_tools` : "";
        out.write(
          table(rows) +
            `\n${
              style.dim(`${view.tools.length} tools, fingerprint ${fnv1a(JSON.stringify(view.tools))}${more}`)
            }\n`,
        );
      },
    },
    {
      name: "/model",
      args: "[name]",
      help: "show the model, or switch it from the next request",
      run: (args, { conversation, out }) => {
        const { llm } = conversation();
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
      run: (args, { conversation, out }) => {
        const { policy } = conversation();
        if (args) {
          if (!(APPROVAL_MODES as readonly string[]).includes(args)) {
            out.write(`unknown mode ${JSON.stringify(args)}; use ${APPROVAL_MODES.join(", ")}\n`);
            return;
          }
          policy.mode = args as ApprovalMode;
        }
        out.write(`approval mode: ${policy.mode}\n`);
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
