/**
 * The plugin API: what a plugin's `register(navi)` receives. Declared once here; `plugins/navi.d.ts`, the
 * file plugin authors import types from, is generated from this file by `deno task embed`.
 * @module
 */
import type { z } from "zod";
import type { ApprovalClass } from "../tool/mod.ts";

export type { ApprovalClass };

/** What a handler returns: `{ ok: true, ...fields }` or `{ ok: false, error }` (a string also works). */
export type ToolResult =
  | ({ ok: true } & Record<string, unknown>)
  | ({ ok: false; error: string } & Record<string, unknown>)
  | string;

/** The second argument of a handler. */
export interface ToolContext {
  /** The directory navi runs in. */
  workspace: string;
  /** Aborted when the user presses Ctrl-C or the call times out. */
  signal: AbortSignal;
}

/** A zod object schema, made with `navi.z.object({...})`: what a tool declares its `parameters` with. */
export type ParametersSchema = z.ZodObject;

/** A tool definition: the same shape and rules as navi's built-in tools. */
export interface ToolDefinition<S extends ParametersSchema = ParametersSchema> {
  /** 1-64 characters from a-z A-Z 0-9 _ - ; must not collide with a built-in or an earlier plugin. */
  name: string;
  /** Written for the model, as "- " bullet lines. */
  description: string;
  /** `navi.z.object({...})`: arguments are validated before the handler runs. */
  parameters: S;
  /** Who must approve a call: read_only runs at once; write and command follow the approval mode. */
  approval: ApprovalClass;
  /** Runs one call with validated arguments. */
  handler(args: S["_zod"]["output"], ctx: ToolContext): ToolResult | Promise<ToolResult>;
  /** Safe to run in parallel with other calls (default false). */
  concurrencySafe?: boolean;
  /** Per-call timeout in milliseconds (default 120000). */
  timeoutMs?: number;
}

/**
 * One permission: `true` grants all of it, a list grants those entries, `false` (or leaving it out) none.
 * Paths may start with `$WORKSPACE` or `$HOME`; `net` entries are `host[:port]`; `env` entries are variable
 * names; `run` entries are program names or paths.
 */
export type PermissionGrant = boolean | string[];

/**
 * What a plugin may do besides computing, declared with `export const permissions = {...}` (a literal) in the
 * plugin file (or its `mod.ts`). Without a declaration a plugin may read the workspace and nothing else;
 * `plugins.<name>.permissions` in config.json replaces the declaration.
 */
export interface PluginPermissions {
  /** Files and directories it may read. */
  read?: PermissionGrant;
  /** Files and directories it may write. */
  write?: PermissionGrant;
  /** Hosts it may connect to (`host[:port]`). */
  net?: PermissionGrant;
  /** Environment variables it may read (never navi's secrets). */
  env?: PermissionGrant;
  /** Programs it may start (they run outside the plugin's permissions: grant with care). */
  run?: PermissionGrant;
}

/** The events a plugin's hook may be registered for (Claude Code's names). */
export type HookEventName =
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "UserPromptSubmit"
  | "SessionStart"
  | "SessionEnd"
  | "Stop"
  | "SubagentStart"
  | "SubagentStop"
  | "Notification"
  | "PreCompact";

/**
 * What a hook receives: the same JSON a command hook reads on stdin (`session_id`, `transcript_path`, `cwd`,
 * `permission_mode`, `hook_event_name`, and per event `tool_name`, `tool_input`, `tool_use_id`,
 * `tool_response`, `prompt`, `source`), with navi's tool names (`write_file`, `bash`, `mcp__server__tool`).
 */
export type HookInput = { hook_event_name: HookEventName; [field: string]: unknown };

/** What a hook may return: the JSON output of a command hook (nothing: no opinion). */
export interface HookDecision {
  /** false: navi stops (with `stopReason` for the user). */
  continue?: boolean;
  /** Why navi stops. */
  stopReason?: string;
  /** A line for the user. */
  systemMessage?: string;
  /** "block" blocks the action (PreToolUse: the call; Stop: the stop; UserPromptSubmit: the prompt). */
  decision?: "block";
  /** Why it blocked (for the model, or the user for UserPromptSubmit). */
  reason?: string;
  /** The event's own fields. */
  hookSpecificOutput?: {
    /** The event this answers. */
    hookEventName?: HookEventName;
    /** PreToolUse: allow skips the question, deny refuses the call, ask asks the user. */
    permissionDecision?: "allow" | "deny" | "ask";
    /** Why (the model is told for deny). */
    permissionDecisionReason?: string;
    /** PreToolUse: the arguments to run the tool with instead (checked against its parameters). */
    updatedInput?: Record<string, unknown>;
    /** Text added to the model's context. */
    additionalContext?: string;
  };
}

/** A plugin hook: runs in the plugin's worker, with its permissions, for each matching event. */
export type HookHandler = (input: HookInput) => HookDecision | void | Promise<HookDecision | void>;

/** The object `register` receives. */
export interface NaviPluginApi {
  /** Register one tool; call it while `register` runs. */
  registerTool<S extends ParametersSchema>(def: ToolDefinition<S>): void;
  /**
   * Register a hook while `register` runs: `navi.on("PreToolUse", handler)`, or with a matcher on the tool
   * name (Claude Code's rules: `"write_file|edit_file"`, a regular expression, `*`):
   * `navi.on("PreToolUse", { matcher: "write_file" }, handler)`. A hook that takes longer than 60 s is ended.
   */
  on(event: HookEventName, handler: HookHandler): void;
  /** See the other overload: the hook runs only for tool names (or sources) `options.matcher` accepts. */
  on(event: HookEventName, options: { matcher?: string }, handler: HookHandler): void;
  /** navi's zod (v4). */
  z: typeof z;
  /** The directory navi runs in. */
  workspace: string;
  /** navi's home directory ($NAVI_HOME or ~/.navi). */
  home: string;
  /** This plugin's section of config.json, `plugins.<file name without extension>`, without `permissions`. */
  config: unknown;
  /** A line in navi's plugin log. */
  log(message: string): void;
  /** navi's version. */
  version: string;
}
