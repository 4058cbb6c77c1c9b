// Which tools a subagent gets, and in which approval mode it runs: never more than its parent may use.
import { APPROVAL_MODES, type ApprovalMode } from "../config/mod.ts";
import type { ToolRegistry } from "../tool/mod.ts";
import { globToRegExp } from "../workspace/mod.ts";
import type { AgentDefinition } from "./definition.ts";

/** The name of the tool that starts subagents. */
export const TASK_TOOL = "task";

function matches(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    p === name || ((p.includes("*") || p.includes("?")) && globToRegExp(p).test(name))
  );
}

/**
 * The tools subagent `agent` may use, in the parent's order: those of `parent` (what the parent may use now)
 * that its definition lists (all of them when it lists none; read-only ones for `explore`), minus its
 * `disallowedTools`, minus `task` unless it may start subagents of its own (`nest`).
 */
export function subagentTools(
  agent: AgentDefinition,
  opts: { parent: readonly string[]; registry: ToolRegistry; nest: boolean },
): string[] {
  return opts.parent.filter((name) => {
    if (name === TASK_TOOL && !opts.nest) return false;
    if (agent.tools && !matches(name, agent.tools)) return false;
    if (agent.readOnly && opts.registry.get(name)?.approval !== "read_only") return false;
    return !matches(name, agent.disallowedTools);
  });
}

/** The stricter of two approval modes (plan is stricter than ask, ask than auto). */
export function stricterMode(a: ApprovalMode, b: ApprovalMode | undefined): ApprovalMode {
  if (!b) return a;
  return APPROVAL_MODES.indexOf(a) <= APPROVAL_MODES.indexOf(b) ? a : b;
}

/** `features` that offer exactly `names` (every other tool switched off; an exact name beats the glob). */
export function onlyThese(names: readonly string[]): Record<string, boolean> {
  return { "*": false, ...Object.fromEntries(names.map((n) => [n, true])) };
}
