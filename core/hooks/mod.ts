/**
 * Hooks: commands (and plugin handlers) run at points of a session, with Claude Code's contract. Hooks come from
 * `"hooks"` in navi's config.json files and, with `compat.claude`, Claude Code's settings files (project ones
 * only in a trusted folder, their commands part of the trust hash); matchers are checked at load
 * (`file:line` for an invalid one). Each event's matching hooks run in parallel, bounded (timeout, 10,000
 * characters of output), project hooks inside the bash sandbox; every run goes into the session's audit.
 *
 * The engine calls {@link SessionHooks}: `tool(...)` for PreToolUse / PostToolUse / PostToolUseFailure (in the
 * one place every tool call passes), `fire(event, fields)` for the others. Features built elsewhere fire
 * their own events the same way (subagents: `hooks.fire("SubagentStart", { agent_id, agent_type })`), and a
 * subagent's loop gets `hooks.forSubagent(...)`, where its end fires `SubagentStop`. With no hook configured nothing is spawned
 * and the runner is never loaded.
 * @module
 */
export { type HookListing, Hooks, type HooksOptions, SessionHooks, type SubagentHookInfo } from "./hooks.ts";
export { hookFiles, type HookPlaces, hookTrustItems, loadHooks } from "./files.ts";
export type { HookFile, LoadedHooks } from "./load.ts";
export {
  type CommandHook,
  HOOK_EVENTS,
  type HookAudit,
  type HookEvent,
  type HookOutcome,
  type HookRunOutput,
  type HookSandbox,
  type HookSessionInfo,
  type HookSource,
  type HookVerdict,
  noOutcome,
  type PluginHook,
  type SkippedHook,
  type ToolHookCall,
} from "./types.ts";
