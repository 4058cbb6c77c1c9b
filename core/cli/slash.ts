// The REPL's slash commands: the narrow context they get (SlashContext), the table of built-in commands, Tab
// completion and /help. Over 300 lines because the table is navi's whole slash surface in one place; each
// command's work lives in commands/.
import {
  type AgentDefinition,
  APPROVAL_MODES,
  type ApprovalMode,
  type Conversation,
  fnv1a,
  type Hooks,
  type Instructions,
  type McpServerState,
  type ModelPrice,
  type PluginReport,
  type SessionSummary,
  type Skill,
  type SlashExpansion,
  type ToolRegistry,
} from "../mod.ts";
import { escapeControls, type Sink } from "../output/mod.ts";
import type { ReasoningDisplay } from "./reasoning_view.ts";
import { type Style, table } from "./style.ts";
import { textWidth } from "./text_width.ts";
import { wrapRows } from "./wrap.ts";

/** What `/plugins` can do. */
export interface PluginControl {
  /** The plugins directory. */
  dir: string;
  /** One report per file of the last load. */
  reports(): PluginReport[];
  /** Rescan the directory; tools change from the next request. */
  reload(): Promise<PluginReport[]>;
  /** Lines about new plugins and changed permissions, each returned once. */
  announcements(): string[];
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
  /** Log in to a server with OAuth (browser flow) and reconnect it; returns the line to show. */
  login(name: string): Promise<string>;
}

/** What the command and skill rows reach: expansion and the lists (never the app). */
export interface ExtensionControl {
  /** Expand `/name args` of a command or skill; undefined when it names neither. */
  expand(line: string): Promise<SlashExpansion | undefined>;
  /** The skills found, highest precedence first. */
  skills(): readonly Skill[];
  /** Scan the folders again; returns the lines about skipped files. */
  reload(): Promise<string[]>;
  /** Where a file is, for display (relative to the workspace inside it). */
  display(path: string): string;
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
  /** Run a user turn with `text` as if it had been typed. */
  submit(text: string): Promise<void>;
  exit(): void;
  /** Clear the terminal (no-op when output is not a terminal). */
  clearScreen(): void;
  /** The terminal's width, when there is one (for /help's columns). */
  columns?(): number;
  /** Saved sessions of this workspace, newest first. */
  sessions(): SessionSummary[];
  /** Resume a saved session (id or unique prefix): it becomes the conversation. Throws SessionError. */
  resume(id: string): void;
  /** Fork the current session (up to the end of `turn`; all of it without): the fork becomes the conversation. */
  fork?(turn?: number): void;
  /** Ask one line; undefined when cancelled or nobody can answer (piped input). */
  ask(prompt: string): Promise<string | undefined>;
  /** Pick one of `rows` with the arrow keys, on a terminal; the index, or undefined when cancelled. */
  choose?(rows: string[], opts: { title: string }): Promise<number | undefined>;
  /** Prices per model from config.json. */
  prices?: Record<string, ModelPrice>;
  /** The provider's models were listed (for completion). */
  modelsListed?(ids: string[]): void;
  /** Read the project instructions (AGENTS.md files) as they are now on disk. */
  instructions?(): Instructions;
  /** How the model's reasoning is shown (`/reasoning on|off`). */
  reasoning?: ReasoningDisplay;
  /** Custom commands and skills: expansion of `/name args`, the skills list. */
  extensions?: ExtensionControl;
  /** The agents the `task` tool starts (read once at start-up). */
  agents?(): readonly AgentDefinition[];
  /** The loaded hooks and their last results (read-only, for `/hooks`). */
  hooks?: Pick<Hooks, "list" | "skipped">;
}

/** One row of the slash-command table: help and completion are derived from it. */
export interface SlashCommand {
  name: string;
  subcommands?: string[];
  args?: string;
  help: string;
  /** The /help section the row is listed in (default `commands`; MCP prompts have their own). */
  group?: string;
  run(args: string, ctx: SlashContext): void | Promise<void>;
}

/** `/tools`: the tools offered to the model, with the array's fingerprint and the tools outside it. */
const TOOLS_COMMAND: SlashCommand = {
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
};

/** After `/model <name>`: a warning when the provider lists its models and `name` is not among them. */
async function warnUnlisted(
  name: string,
  ctx: Pick<SlashContext, "out" | "style" | "signal" | "modelsListed"> & { llm: Conversation["llm"] },
): Promise<void> {
  const ids = await ctx.llm.listModels({ signal: ctx.signal, timeoutMs: 5000 }).catch(() => undefined);
  if (!ids?.length) return;
  ctx.modelsListed?.(ids);
  if (ids.includes(name)) return;
  const some = ids.slice(0, 6).join(", ") + (ids.length > 6 ? ", …" : "");
  ctx.out.write(
    ctx.style.yellow(
      `navi: warning: the provider does not list ${escapeControls(name)} (it lists ${
        escapeControls(some)
      }); ` +
        "the next request may fail: /model lists them, Tab completes",
    ) + "\n",
  );
}

/** `/model [name]`: the model and the provider's models, or a switch from the next request. */
const MODEL_COMMAND: SlashCommand = {
  name: "/model",
  args: "[name]",
  help: "show the model and the provider's models, or switch it from the next request",
  run: async (args, { conversation, out, style, signal, modelsListed }) => {
    const { llm } = conversation();
    if (args) llm.overrides.model = args;
    let current: string | undefined;
    try {
      const c = llm.current();
      current = c.model;
      out.write(`${args ? "model set to" : "model:"} ${c.model} (provider ${c.name})\n`);
    } catch (err) {
      out.write(`${args ? `model set to ${args}; ` : ""}${(err as Error).message}\n`);
    }
    if (args) return await warnUnlisted(args, { llm, out, style, signal, modelsListed });
    try {
      const ids = await llm.listModels({ signal });
      modelsListed?.(ids);
      if (!ids.length) return void out.write("the provider lists no models\n");
      const shown = ids.map((id) => (id === current ? style.bold(`* ${id}`) : `  ${id}`));
      out.write(`${shown.join("\n")}\n${style.dim("/model <name> switches (Tab completes)")}\n`);
    } catch (err) {
      out.write(`could not list the provider's models: ${(err as Error).message}\n`);
    }
  },
};

/** The built-in slash commands; features (plugins, MCP, /compact) add rows with `extra`. */
export function slashTable(extra: SlashCommand[] = []): SlashCommand[] {
  const commands: SlashCommand[] = [
    {
      name: "/help",
      help: "show this help",
      run: (_a, ctx) =>
        ctx.out.write(helpText(commands, { columns: ctx.columns?.(), style: ctx.style }) + "\n"),
    },
    {
      name: "/clear",
      help: "clear the screen and start a new conversation",
      run: (_a, ctx) => {
        ctx.clearScreen();
        ctx.newConversation();
      },
    },
    TOOLS_COMMAND,
    MODEL_COMMAND,
    {
      name: "/approval",
      subcommands: [...APPROVAL_MODES],
      help: "show or set the approval mode (plan, ask, auto)",
      run: (args, { conversation, out, style }) => {
        const { policy } = conversation();
        if (args) {
          if (!(APPROVAL_MODES as readonly string[]).includes(args)) {
            out.write(`unknown mode ${JSON.stringify(args)}; use ${APPROVAL_MODES.join(", ")}\n`);
            return;
          }
          policy.mode = args as ApprovalMode;
        }
        out.write(`approval mode: ${policy.mode}\n`);
        if (args === "auto") {
          out.write(style.yellow("navi: warning: approval mode auto runs every tool without asking") + "\n");
        }
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

/**
 * Completion of a slash command line (the text before the cursor): command names, then subcommands, then
 * the values `args` gives for a command (e.g. model ids for `/model`). Returns where the word starts.
 */
export function slashCompletion(
  commands: SlashCommand[],
  line: string,
  args: (command: string) => string[] = () => [],
): { start: number; items: string[] } | undefined {
  if (!line.startsWith("/") || line.includes("\n")) return undefined;
  const space = line.indexOf(" ");
  if (space < 0) return { start: 0, items: commands.map((c) => c.name).filter((n) => n.startsWith(line)) };
  const cmd = commands.find((c) => c.name === line.slice(0, space));
  if (!cmd) return undefined;
  const rest = line.slice(space + 1);
  if (rest.includes(" ")) return undefined;
  const words = [...(cmd.subcommands ?? []), ...args(cmd.name)];
  return { start: space + 1, items: words.filter((w) => w.startsWith(rest)) };
}

/** The keys of the REPL's line editor, as `/help` lists them. */
export const REPL_KEYS: readonly [string, string][] = [
  ["Enter", "send; a line ending in \\ goes on on the next line"],
  ["Alt-Enter, Ctrl-J", "a new line in the same message"],
  ["Tab", "complete commands, their arguments, @paths and @server: resources"],
  ["Up, Down", "history (in a multi-line message: move between its lines first)"],
  ["Ctrl-R", "search the history"],
  ["Ctrl-A, Ctrl-E", "start and end of the line"],
  ["Ctrl-U, Ctrl-K", "delete to the start or the end of the line"],
  ["Ctrl-W, Alt-Backspace", "delete the word before the cursor"],
  ["Ctrl-L", "clear the screen"],
  ["Esc, Ctrl-C", "stop what navi is doing; at the prompt Ctrl-C clears the line"],
  ["Ctrl-D", "exit (on an empty line)"],
  ["@path, !command", "attach a file; run a shell command yourself"],
];

/**
 * Rows as two aligned columns `columns` wide: the first at most about a third of the width (a longer name
 * puts its description on the next row), descriptions wrapped at words under their column. `align`: the rows
 * whose names set the first column's width (several tables aligned alike).
 */
export function twoColumns(
  rows: [string, string][],
  opts: { columns: number; indent?: string; align?: [string, string][] },
): string[] {
  const indent = opts.indent ?? "  ";
  const cap = Math.max(12, Math.min(30, Math.floor(opts.columns / 3)));
  const first = Math.min(cap, Math.max(0, ...(opts.align ?? rows).map(([a]) => textWidth(a))));
  const hang = " ".repeat(indent.length + first + 2);
  const width = Math.max(20, opts.columns - 1);
  return rows.flatMap(([name, what]) => {
    const fits = textWidth(name) <= first;
    const lead = fits ? `${indent}${name}${" ".repeat(first - textWidth(name))}  ` : hang;
    const head = fits ? [] : [`${indent}${name}`];
    return [...head, ...wrapRows(what, { columns: width, first: lead, rest: hang })];
  });
}

/** The `/help` text: the commands by section (each with its subcommands), then the keys. */
export function helpText(commands: SlashCommand[], opts: { columns?: number; style?: Style } = {}): string {
  const columns = opts.columns ?? 100;
  const bold = opts.style?.bold ?? ((s: string) => s);
  const groups = new Map<string, [string, string][]>();
  for (const c of commands) {
    const name = [c.name, c.subcommands ? `[${c.subcommands.join("|")}]` : c.args ?? ""].filter(Boolean).join(
      " ",
    );
    const rows = groups.get(c.group ?? "commands") ??
      groups.set(c.group ?? "commands", []).get(c.group ?? "commands")!;
    rows.push([escapeControls(name), escapeControls(c.help.replace(/\s+/g, " ").trim())]);
  }
  groups.set("keys", [...REPL_KEYS]);
  const align = [...groups.values()].flat();
  return [...groups].map(([title, rows]) => [bold(title), ...twoColumns(rows, { columns, align })].join("\n"))
    .join("\n\n");
}

/** Run a slash command line; returns false when the line names no command. */
export async function dispatch(commands: SlashCommand[], line: string, ctx: SlashContext): Promise<boolean> {
  const [name, ...rest] = line.trim().split(/\s+/);
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) return false;
  await cmd.run(rest.join(" "), ctx);
  return true;
}
