// What a subagent's requests open with (the same bytes every run of the agent) and its one-line usage.
import type { Usage } from "../provider/mod.ts";
import type { AgentDefinition } from "./definition.ts";

/**
 * The system prompt of a run of `agent`: its own prompt, then the workspace. Nothing that changes between runs
 * (no date, no task) goes in it, so that every run of the agent shares the cached prefix.
 */
export function subagentSystemPrompt(agent: AgentDefinition, workspace: string): string {
  return [
    agent.prompt || `You are the ${agent.name} agent: ${agent.description}`,
    "",
    `You work in ${workspace} as a subagent: the task comes as the user's message, your last message is the`,
    "answer the agent that started you receives. Nobody can answer questions during the task.",
  ].join("\n");
}

/** A subagent's tokens and time on one line: `3,210 in (2,900 cached) · 120 out · 1.4s`. */
export function usageLine(usage: Usage, ms: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const cached = usage.cached_tokens ? ` (${n(usage.cached_tokens)} cached)` : "";
  return `${n(usage.prompt_tokens)} in${cached} · ${n(usage.completion_tokens)} out · ${
    (ms / 1000).toFixed(1)
  }s`;
}
