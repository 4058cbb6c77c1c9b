import { join } from "node:path";
import { type AgentDefinition, readSession, type SubagentRecord } from "../../mod.ts";
import { escapeControls } from "../../output/mod.ts";
import type { SlashCommand } from "../slash.ts";
import { shorten, type Style, table } from "../style.ts";

/** The agents the `task` tool starts: name, whose, tools, description. */
export function agentsTable(agents: readonly AgentDefinition[], style: Style): string {
  const tools = (a: AgentDefinition) =>
    a.readOnly ? "read-only" : a.tools ? (a.tools.join(", ") || "none") : "the parent's";
  return table([
    ["AGENT", "FROM", "TOOLS", "DESCRIPTION"].map(style.bold),
    ...agents.map((a) =>
      [a.name, a.level, shorten(tools(a), 40), shorten(a.description, 70)].map(escapeControls)
    ),
  ]);
}

/** A session's subagent runs: number, agent, task, result, tokens, time and transcript. */
export function subagentRuns(runs: readonly SubagentRecord[], opts: { dir: string; style: Style }): string {
  if (!runs.length) return "no subagents ran in this session";
  return table([
    ["N", "AGENT", "TASK", "RESULT", "TOKENS (IN/CACHED/OUT)", "TIME", "TRANSCRIPT"].map(opts.style.bold),
    ...runs.map((r) =>
      [
        String(r.n),
        r.agent,
        shorten(r.description, 40),
        r.ok ? "ok" : shorten(r.error ?? "failed", 40),
        `${r.usage.prompt_tokens}/${r.usage.cached_tokens}/${r.usage.completion_tokens}`,
        `${(r.ms / 1000).toFixed(1)}s`,
        join(opts.dir, `${r.n}.jsonl`),
      ].map(escapeControls)
    ),
  ]);
}

/** `navi sessions show <id>`: the session's metadata, messages and subagent runs (with their transcripts). */
export function sessionShow(home: string, id: string, style: Style): string {
  const view = readSession(home, id);
  const dir = join(home, "sessions", view.meta.id, "agents");
  const head = [
    `${style.bold("session")} ${view.meta.id}`,
    `created ${view.meta.created.slice(0, 19).replace("T", " ")} in ${view.meta.cwd}`,
    `${view.messages.length} messages, ${view.checkpoints.filter((c) => c.kind === "turn").length} turns`,
  ].map(escapeControls);
  return [...head, "", subagentRuns(view.subagents, { dir, style })].join("\n");
}

/** REPL row: `/agents`: the agents there are, and the subagents this session ran. */
export function agentsSlashCommand(): SlashCommand {
  return {
    name: "/agents",
    help: "the agents the task tool starts, and this session's subagent runs with their transcripts",
    run: (_a, ctx) => {
      const session = ctx.conversation().agent.session;
      const agents = ctx.agents?.() ?? [];
      const runs = subagentRuns(session.subagents, { dir: session.agentDir, style: ctx.style });
      ctx.out.write(`${agentsTable(agents, ctx.style)}\n\n${runs}\n`);
    },
  };
}
