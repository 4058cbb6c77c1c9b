// The `task` tool: starts a subagent; its description lists the agents, fixed when the app starts.
import { z } from "zod";
import { defineTool, type Tool, ToolError } from "../tool/mod.ts";
import type { AgentCatalog } from "./catalog.ts";
import { TASK_TOOL } from "./tools.ts";

/** How long one subagent run may take before its call is stopped (an hour). */
const TASK_TIMEOUT_MS = 60 * 60_000;

/** The agents as the tool's description lists them: one line each, sorted by name. */
export function agentList(catalog: AgentCatalog): string {
  return catalog.agents.map((a) => `  - ${a.name}: ${a.description}`).join("\n");
}

/**
 * The `task` tool for the agents of `catalog`. Its description (and so the tools array) is the same bytes for
 * as long as the catalog is: agents are read once, at start-up.
 */
export function taskTool(catalog: AgentCatalog): Tool {
  const names = catalog.agents.map((a) => a.name);
  return defineTool({
    name: TASK_TOOL,
    description: [
      "- Starts a subagent on a self-contained task, in a fresh context: it sees only your prompt, works with",
      "its own tools and returns its final answer (and a usage line) as the result. Its searches and reads do",
      "not fill your context.",
      "- Write the prompt as a complete brief: what to do, what you know already, and what to report back.",
      "- Several task calls in one response run at the same time: use that for independent tasks.",
      "- Agents:",
      agentList(catalog),
    ].join("\n"),
    parameters: z.object({
      agent: z.string().min(1).max(64).describe(`The agent to start: ${names.join(", ")}.`),
      description: z.string().min(1).max(120).describe("The task in 3-8 words, shown to the user."),
      prompt: z.string().min(1).describe("The task for the subagent, with everything it needs to know."),
    }),
    approval: "read_only",
    concurrencySafe: true,
    timeoutMs: TASK_TIMEOUT_MS,
    maxOutputChars: 60_000,
    async handler(args, ctx) {
      if (!ctx.subagents) throw new ToolError("Subagents cannot be started here");
      return await ctx.subagents.run(args, { signal: ctx.signal, callId: ctx.callId });
    },
  });
}
