// The shapes of hooks: events, one configured command hook, what a run produced and what a batch decided.
import type { SandboxedCommand } from "../tool/mod.ts";

/** Every event a hook may be configured for (Claude Code's names). */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "SessionStart",
  "SessionEnd",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "Notification",
  "PreCompact",
] as const;

/** One hook event. */
export type HookEvent = typeof HOOK_EVENTS[number];

/** Where a hook was configured. */
export interface HookSource {
  /** The file (absolute), or `plugin <name>` for a plugin's `navi.on`. */
  file: string;
  /** The user's own file, a project's (confined by default), or a plugin's. */
  level: "user" | "project" | "plugin";
  /** `claude`: the hook sees Claude Code's tool names and inputs; `navi`: navi's. */
  vocabulary: "claude" | "navi";
  /** A plugin bundle's folder: `${CLAUDE_PLUGIN_ROOT}` in its commands and in their environment. */
  pluginRoot?: string;
}

/** One command hook as loaded. */
export interface CommandHook {
  /** The event it runs on. */
  event: HookEvent;
  /** The matcher as written ("" when absent). */
  matcher: string;
  /** Whether the matcher accepts `value` (a tool name, a session source, a notification type). */
  matches(value: string | undefined): boolean;
  /** The shell command (`bash -c`). */
  command: string;
  /** How long it may run, in milliseconds (default 60 s). */
  timeoutMs: number;
  /** Where it was configured. */
  source: HookSource;
  /** The line of its entry in the file (1-based; 0 when unknown). */
  line: number;
  /** Whether it runs inside the bash sandbox (project hooks by default, user hooks with `"sandbox": true`). */
  confined: boolean;
  /** Whether a confined hook may use the network (`"network": true`). */
  network: boolean;
}

/** A hook in a file that navi does not run (an event or hook type it does not know), for `/hooks`. */
export interface SkippedHook {
  /** The event name as written. */
  event: string;
  /** Why it does not run. */
  why: string;
  /** The file. */
  file: string;
  /** Its line. */
  line: number;
}

/** What one hook run produced, before it is read. */
export interface HookRunOutput {
  /** The exit code (null when it was ended: timeout, abort, or it could not start). */
  code: number | null;
  /** Its stdout, capped. */
  stdout: string;
  /** Its stderr, capped. */
  stderr: string;
  /** Why it has no exit code: `timeout`, `aborted`, or an error starting it. */
  ended?: string;
  /** How long it ran, in milliseconds. */
  ms: number;
}

/** The decision shape of a hook (a command's JSON output or a plugin handler's return value), read. */
export interface HookVerdict {
  /** Blocks the action: the reason (for the model, the user or the loop, by event). */
  block?: string;
  /** PreToolUse: allow, deny or ask. */
  permission?: "allow" | "deny" | "ask";
  /** Why (`permissionDecisionReason`). */
  reason?: string;
  /** PreToolUse: the tool input to use instead. */
  updatedInput?: Record<string, unknown>;
  /** Text for the model's context. */
  context?: string;
  /** A line for the user (`systemMessage`). */
  message?: string;
  /** `continue: false`: navi stops the turn, with `stopReason` for the user. */
  stop?: string;
  /** A non-blocking error, one line. */
  error?: string;
}

/** What all matching hooks of one event decided together. */
export interface HookOutcome {
  /** How many hooks ran. */
  ran: number;
  /** Blocking reasons (exit 2, `decision: "block"`), joined. */
  block?: string;
  /** The strongest permission decision: deny over ask over allow. */
  permission?: "allow" | "deny" | "ask";
  /** Its reason. */
  reason?: string;
  /** The last hook's replacement input. */
  updatedInput?: Record<string, unknown>;
  /** Context text of every hook, in order. */
  context: string[];
  /** Lines for the user: system messages and non-blocking errors. */
  messages: string[];
  /** A hook asked navi to stop (`continue: false`). */
  stop?: string;
}

/** A hook run as the session's audit keeps it. */
export interface HookAudit {
  /** The event. */
  event: HookEvent;
  /** Where the hook was configured (file, or `plugin <name>`). */
  source: string;
  /** The command (or the plugin's name). */
  command: string;
  /** The exit code, null when ended (see `ended`). */
  exit: number | null;
  /** `timeout`, `aborted` or a start error. */
  ended?: string;
  /** Milliseconds. */
  ms: number;
  /** What it decided, in a word: block, deny, ask, allow, error, ok. */
  result: string;
}

/** An empty outcome (no hook matched). */
export function noOutcome(): HookOutcome {
  return { ran: 0, context: [], messages: [] };
}

/** What wraps a confined hook's argv (the session's sandbox). */
export interface HookSandbox {
  /** See the sandbox's `wrap`; `network` lets this one command use the network. */
  wrap(argv: string[], opts: { command: string; cwd: string; network?: boolean }): Promise<SandboxedCommand>;
}

/** A hook a plugin registered with `navi.on(event, handler)`: runs in the plugin's worker. */
export interface PluginHook {
  /** The event. */
  event: HookEvent;
  /** The plugin's name. */
  plugin: string;
  /** Tool names it is for (from `navi.on(event, { matcher }, handler)`); "" for all. */
  matcher: string;
  /** Whether the matcher accepts a value. */
  matches(value: string | undefined): boolean;
  /** Calls the handler in the worker with the hook input; resolves to its decision (or undefined). */
  call(input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

/** The session a hook runs for: the common input fields and where its runs are audited. */
export interface HookSessionInfo {
  /** The session's id. */
  sessionId: string;
  /** The session's JSONL file. */
  transcriptPath: string;
  /** The approval mode now (`permission_mode`: ask -> default, auto -> bypassPermissions, plan -> plan). */
  mode(): string;
  /** Records one run in the session's audit. */
  audit?(record: HookAudit): void;
  /** The sandbox confined hooks run in. */
  sandbox?: HookSandbox;
}

/** What the tool hooks see of a tool call. */
export interface ToolHookCall {
  /** navi's tool name. */
  tool: string;
  /** The call's arguments (navi's names). */
  args: Record<string, unknown>;
  /** The tool call id. */
  callId: string;
}
