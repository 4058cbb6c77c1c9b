import {
  type Conversation,
  displayPath,
  type Elicit,
  expandSlash,
  headText,
  loadInstructions,
  type NaviApp,
  pluginsDir,
} from "../mod.ts";
import { openInBrowser } from "./browser.ts";
import { cacheSlashCommand } from "./commands/cache.ts";
import { compactSlashCommand } from "./commands/compact.ts";
import { contextSlashCommands } from "./commands/context.ts";
import { mcpAdd, mcpRemove, mcpSlashCommands } from "./commands/mcp.ts";
import { permissionsSlashCommand } from "./commands/permissions.ts";
import { pluginSlashCommands } from "./commands/plugins.ts";
import { effortSlashCommand, reasoningSlashCommand } from "./commands/reasoning.ts";
import { resumeSlashCommand } from "./commands/resume.ts";
import { forkSlashCommand, rewindSlashCommand } from "./commands/rewind.ts";
import { shellsSlashCommand } from "./commands/shells.ts";
import { hooksSlashCommand } from "./commands/hooks.ts";
import { todoSlashCommand } from "./commands/todo.ts";
import { skillsSlashCommand } from "./commands/extensions.ts";
import { usageSlashCommand } from "./commands/usage.ts";
import { agentsSlashCommand } from "./commands/agents.ts";
import type { Sink } from "../output/mod.ts";
import type { ReasoningDisplay } from "./reasoning_view.ts";
import { type SlashCommand, type SlashContext, slashTable } from "./slash.ts";
import type { Style } from "./style.ts";
import type { TermOut } from "./terminal.ts";

/** What the REPL hands over to build the slash commands' narrow context. */
export interface ReplParts {
  elicit?: Elicit;
  conversation(): Conversation;
  out: Sink;
  style: Style;
  /** The running step's abort signal. */
  signal(): AbortSignal;
  newConversation(): void;
  exit(): void;
  /** The terminal, when there is one (for /clear). */
  term?: TermOut;
  sessions: SlashContext["sessions"];
  resume(id: string): void;
  /** Fork the current session (see SlashContext.fork). */
  fork(turn?: number): void;
  ask(prompt: string): Promise<string | undefined>;
  choose?: SlashContext["choose"];
  modelsListed(ids: string[]): void;
  /** Run a user turn with `text` (an expanded MCP prompt). */
  submit(text: string): Promise<void>;
  /** MCP servers were reloaded or logged in to (prompt rows change). */
  mcpChanged(): Promise<void>;
  /** How the model's reasoning is shown (the printer's setting). */
  reasoning?: ReasoningDisplay;
}

/** The context slash commands run with: the conversation and narrow controls over plugins, MCP, sessions. */
export function slashContext(app: NaviApp, parts: ReplParts): SlashContext {
  return {
    conversation: parts.conversation,
    tools: app.registry,
    agents: () => app.agents.agents,
    plugins: {
      dir: pluginsDir(app.home),
      reports: () => app.plugins.reports,
      reload: () => app.loadPlugins(),
      announcements: () => app.plugins.announcements(),
    },
    mcp: {
      states: () => app.mcp.states(),
      reload: async () => {
        await app.mcp.reload();
        await parts.mcpChanged();
      },
      add: (name, spec) => mcpAdd(app.home, name, spec),
      remove: (name) => mcpRemove(app.home, name),
      login: async (name) => {
        const write = (text: string) => parts.out.write(text);
        await app.mcp.login(name, { openUrl: (url) => openInBrowser(url, { server: name, write }) });
        await parts.mcpChanged();
        return `logged in to ${name}`;
      },
    },
    out: parts.out,
    style: parts.style,
    get signal() {
      return parts.signal();
    },
    newConversation: parts.newConversation,
    exit: parts.exit,
    clearScreen: () => parts.term?.write("\x1b[2J\x1b[3J\x1b[H"),
    columns: parts.term && (() => parts.term!.columns()),
    sessions: parts.sessions,
    resume: parts.resume,
    fork: parts.fork,
    ask: parts.ask,
    choose: parts.choose,
    submit: parts.submit,
    prices: app.config.prices,
    modelsListed: parts.modelsListed,
    instructions: () => {
      const instructions = loadInstructions({ workspace: app.workspace, home: app.home });
      const model = (() => {
        try {
          return parts.conversation().llm.current().model;
        } catch {
          return undefined;
        }
      })();
      return { ...instructions, text: headText(app, { instructions, model }).text };
    },
    extensions: {
      expand: (line) =>
        expandSlash(app, parts.conversation(), line, {
          signal: parts.signal(),
          onOutput: (chunk) => parts.out.write(chunk),
        }),
      skills: () => app.extensions.skills,
      reload: async () => {
        await app.extensions.refresh({ force: true });
        return app.extensions.problems;
      },
      display: (path) => displayPath(app.workspace, path),
    },
    reasoning: parts.reasoning,
    hooks: app.hooks,
  };
}

/** The REPL's slash table: the built-in rows, the feature rows, then `extra`. */
export function replCommands(extra: SlashCommand[] = []): SlashCommand[] {
  return slashTable([
    compactSlashCommand(),
    ...contextSlashCommands(),
    cacheSlashCommand(),
    usageSlashCommand(),
    agentsSlashCommand(),
    effortSlashCommand(),
    reasoningSlashCommand(),
    permissionsSlashCommand(),
    resumeSlashCommand(),
    rewindSlashCommand(),
    forkSlashCommand(),
    shellsSlashCommand(),
    hooksSlashCommand(),
    todoSlashCommand(),
    ...pluginSlashCommands(),
    ...mcpSlashCommands(),
    skillsSlashCommand(),
    ...extra,
  ]);
}
