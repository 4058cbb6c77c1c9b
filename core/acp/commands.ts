// The slash commands an editor offers for navi (`available_commands_update`): what makes sense without a
// terminal (model, approval mode, compaction, tools, usage), the custom commands and skills, every MCP prompt.
import type * as acp from "@agentclientprotocol/sdk";
import { type Conversation, expandSlash, type NaviApp } from "../app/mod.ts";
import { APPROVAL_MODES, type ApprovalMode } from "../config/mod.ts";
import type { CompactionInfo } from "../context/mod.ts";
import { parsePromptArgs, type PromptCommand, promptUsage } from "../mcp/mod.ts";
import { totalUsage } from "../provider/mod.ts";

/** What a command may reach. */
export interface CommandContext {
  app: NaviApp;
  convo: Conversation;
  signal: AbortSignal;
  /** Switch the approval mode (the editor hears `current_mode_update`). */
  setMode(mode: ApprovalMode): void;
  /** Switch the model (the editor hears `config_option_update`). */
  setModel(model: string): void;
}

/**
 * What a command did: text for the user, or a prompt to run as a user turn (an MCP prompt, a custom command
 * or a skill), with the model a custom command names.
 */
export type CommandOutcome = { say: string } | { submit: string; model?: string; notes?: string[] };

/** One slash command. */
export interface AcpCommand {
  /** Without the slash. */
  name: string;
  description: string;
  /** What goes after the name, when anything does. */
  hint?: string;
  run(args: string, ctx: CommandContext): Promise<CommandOutcome>;
}

/** The line for a compaction starting or done. */
export function compactionNote(info: CompactionInfo): string {
  return info.summary === undefined
    ? `compacting the conversation (about ${info.before} tokens)...`
    : `compacted the conversation: about ${info.before} -> ${info.after} tokens`;
}

const BUILT_IN: AcpCommand[] = [
  {
    name: "model",
    description: "show the model, or switch it from the next request",
    hint: "[name]",
    run: (args, ctx) => {
      if (args) ctx.setModel(args);
      try {
        const c = ctx.convo.llm.current();
        return Promise.resolve({
          say: `${args ? "model set to" : "model:"} ${c.model} (provider ${c.name})`,
        });
      } catch (err) {
        return Promise.resolve({ say: (err as Error).message });
      }
    },
  },
  {
    name: "approval",
    description: "show or set the approval mode (plan, ask, auto)",
    hint: "[plan|ask|auto]",
    run: (args, ctx) => {
      if (args && !(APPROVAL_MODES as readonly string[]).includes(args)) {
        return Promise.resolve({
          say: `unknown mode ${JSON.stringify(args)}; use ${APPROVAL_MODES.join(", ")}`,
        });
      }
      if (args) ctx.setMode(args as ApprovalMode);
      return Promise.resolve({ say: `approval mode: ${ctx.convo.policy.mode}` });
    },
  },
  {
    name: "compact",
    description: "replace the conversation so far by a summary (same session)",
    run: async (_a, ctx) => {
      const info = await ctx.convo.agent.compact(ctx.signal, { reason: "manual" });
      return { say: info ? compactionNote(info) : "nothing to compact yet" };
    },
  },
  {
    name: "tools",
    description: "the tools the next model request offers",
    run: (_a, ctx) => {
      const names = ctx.convo.agent.deferral.view().tools.map((t) => t.function.name);
      return Promise.resolve({ say: `${names.length} tools: ${names.join(", ")}` });
    },
  },
  {
    name: "usage",
    description: "tokens used in this session and the prompt-cache hit ratio",
    run: (_a, ctx) => {
      const u = totalUsage(ctx.convo.agent.session.usage);
      const ratio = ctx.convo.agent.cache.summary().hit_ratio;
      return Promise.resolve({
        say:
          `${u.prompt_tokens} prompt tokens (${u.cached_tokens} cached), ${u.completion_tokens} completion tokens` +
          (ratio === null ? "" : `; cache hit ratio ${ratio}`),
      });
    },
  },
];

/** An MCP prompt as a command: its arguments from the text after the name, then the prompt as a user turn. */
function promptCommand(cmd: PromptCommand): AcpCommand {
  const usage = promptUsage(cmd);
  return {
    name: cmd.name.replace(/^\//, ""),
    description: cmd.description || `MCP prompt ${cmd.prompt} of ${cmd.server}`,
    ...(usage ? { hint: usage } : {}),
    run: async (args, ctx) => {
      const { values, missing, unknown } = parsePromptArgs(args, cmd.arguments);
      if (unknown.length || missing.length) {
        const what = unknown.length ? `no argument ${unknown.join(", ")}` : `needs ${missing.join(", ")}`;
        return { say: `${cmd.name} ${what}: ${cmd.name} ${usage}` };
      }
      return { submit: await ctx.app.mcp.runPrompt(cmd, values) };
    },
  };
}

/** A custom command or a user-invocable skill, expanded the way every front expands them (expandSlash). */
function extensionCommand(item: { name: string; description: string; argumentHint?: string }): AcpCommand {
  return {
    name: item.name,
    description: item.description,
    ...(item.argumentHint ? { hint: item.argumentHint } : {}),
    run: async (args, ctx) => {
      const line = `/${item.name}${args ? ` ${args}` : ""}`;
      const x = await expandSlash(ctx.app, ctx.convo, line, { signal: ctx.signal });
      if (!x) return { say: `/${item.name} is gone (its file was removed)` };
      return { submit: x.text, ...(x.model ? { model: x.model } : {}), notes: x.notes };
    },
  };
}

/** The session's commands: the built-in ones, the project's and user's commands and skills, the MCP prompts. */
export async function sessionCommands(app: NaviApp): Promise<AcpCommand[]> {
  const prompts = await app.mcp.promptCommands().catch(() => []);
  const ext = [...app.extensions.commands, ...app.extensions.skills.filter((s) => s.userInvocable)];
  const all = [...BUILT_IN, ...ext.map(extensionCommand), ...prompts.map(promptCommand)];
  return all.filter((c, i) => all.findIndex((d) => d.name === c.name) === i);
}

/** The commands as ACP advertises them. */
export function advertised(commands: AcpCommand[]): acp.AvailableCommand[] {
  return commands.map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.hint ? { input: { hint: c.hint } } : {}),
  }));
}

/** The command a prompt's text calls (`/name args`), with its arguments; undefined for a normal prompt. */
export function commandCall(
  text: string,
  commands: AcpCommand[],
): { command: AcpCommand; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const command = m && commands.find((c) => c.name === m[1]);
  return command ? { command, args: (m![2] ?? "").trim() } : undefined;
}
