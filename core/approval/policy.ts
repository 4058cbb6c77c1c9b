// Who approves a tool call: the approval modes, allow and deny rules, hooks' decisions, the session's grants
// and the question put to the user. Over 300 lines because the order of those checks is the policy, kept in
// one class.
import { type CommandPattern, matchesCommand, parseCommandPattern } from "./command_rule.ts";
import type { ApprovalMode } from "../config/mod.ts";
import { globToRegExp } from "../workspace/mod.ts";
import type { ApprovalClass, ToolPreview } from "../tool/mod.ts";

/** The user's answer to an approval question. */
export type Answer = "yes" | "no" | "always";

/** A full reply: "always" narrowed to commands starting with `prefix`; "no" with what to do `instead`. */
export interface Reply {
  /** yes, no, or always (for the session). */
  answer: Answer;
  /** With "always" on a command tool: allow only commands starting with this prefix. */
  prefix?: string;
  /** With "no": what the user wants instead; it goes to the model with the refusal. */
  instead?: string;
}

/** What the user is asked about. */
export interface ApprovalQuestion {
  /** The tool the model called. */
  tool: string;
  /** The arguments on one shortened line (for logs and narrow displays). */
  summary: string;
  /** The call's arguments, whole. */
  args: Record<string, unknown>;
  /** What the call would change (a diff for file tools), when the tool can tell. */
  preview?: ToolPreview;
  /** For a `command` argument: the prefix "always for commands starting with ..." would allow. */
  prefix?: string;
  /** Asked about a path outside the workspace: the resolved path ("always" then covers only that). */
  outside?: string;
  /** The id of the tool call asked about, when the caller knows it (an editor shows the question there). */
  callId?: string;
  /** The subagent whose call it is (absent: the conversation's own). */
  agent?: string;
}

/** Asks the user; absent when nobody can answer (stdin not a terminal, `-p`). */
export type AskUser = (question: ApprovalQuestion) => Promise<Answer | Reply>;

/** Something the user allowed for the rest of the session. */
export interface Grant {
  /** Stable number for `revoke`. */
  id: number;
  /** The tool it covers. */
  tool: string;
  /** Only commands starting with this prefix. */
  prefix?: string;
  /** Only paths outside the workspace (answered "always" to that question). */
  outside?: boolean;
}

/** The outcome of one decision, recorded in the session's audit records. */
export interface Decision {
  /** Whether the call may run. */
  allowed: boolean;
  /**
   * What decided: a `read_only` tool, `auto` or `plan` mode, an allow `rule`, a `denied` rule, the `user`,
   * a `session` answer ("always"), the enforced `sandbox` (`sandbox.auto_allow`), `refused` (nobody to ask),
   * `invalid` arguments or a PreToolUse `hook` that allowed or denied it.
   */
  how:
    | "read_only"
    | "auto"
    | "rule"
    | "user"
    | "session"
    | "sandbox"
    | "denied"
    | "refused"
    | "plan"
    | "invalid"
    | "hook";
  /** Why the call may not run, as the model is told. */
  error?: string;
  /** The path outside the workspace the user allowed along with the call (it is not asked about again). */
  outside?: string;
}

/** A parsed allow or deny rule. */
export interface Rule {
  /** Matches the tool name. */
  tool: RegExp;
  /** For `tool(command prefix*)` rules: matches one simple command of the call's `command` argument. */
  command?: RegExp;
  /** The same command read as a command (program, option set, words): how deny rules see respellings. */
  pattern?: CommandPattern;
}

/** Parse `"name-or-glob"` or `"bash(command prefix*)"` into a rule. */
export function parseRule(pattern: string): Rule {
  const m = /^([^()]+)\((.*)\)$/.exec(pattern.trim());
  if (!m) return { tool: globToRegExp(pattern.trim()) };
  return {
    tool: globToRegExp(m[1]),
    command: new RegExp(globToRegExp(m[2]).source.replace(/\[\^\/\]\*/g, ".*")),
    pattern: parseCommandPattern(m[2]),
  };
}

/** Split a shell command line into its simple commands (on ; && || | & and newlines). */
export function commandSegments(command: string): string[] {
  return command.split(/\s*(?:&&|\|\||;|\||&|\n)\s*/).map((s) => s.trim()).filter(Boolean);
}

/**
 * Whether a deny rule blocks the call. Command rules match the text of each part (as before), then the
 * commands the shell would run (the shell reader is loaded on first use, not at start-up).
 */
async function denied(
  rules: Rule[],
  call: { tool: string; args: Record<string, unknown> },
): Promise<boolean> {
  const { tool, args } = call;
  const mine = rules.filter((r) => r.tool.test(tool));
  if (!mine.length) return false;
  if (mine.some((r) => !r.command)) return true;
  const command = typeof args.command === "string" ? args.command : "";
  const segments = commandSegments(command);
  const byText = (re: RegExp) => segments.some((seg) => re.test(seg)) || re.test(command.trim());
  if (mine.some((r) => byText(r.command!))) return true;
  const { shellCommands } = await import("./shell_words.ts");
  const commands = shellCommands(command);
  return mine.some((r) =>
    commands.some((words) =>
      r.command!.test(words.join(" ")) || (r.pattern !== undefined && matchesCommand(r.pattern, words))
    )
  );
}

/** The prefix offered for "always for commands starting with ...": the first one or two words. */
export function suggestPrefix(command: string): string | undefined {
  if (!command.trim() || /`|\$\(|[<>]/.test(command)) return undefined;
  const words = (commandSegments(command)[0] ?? "").split(/\s+/).filter(Boolean);
  if (!words.length || /["'\\]/.test(words[0])) return undefined;
  const second = words[1];
  return second && /^[A-Za-z0-9_.:-]+$/.test(second) && !second.startsWith("-")
    ? `${words[0]} ${second}`
    : words[0];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function grantRule(grant: Grant): Rule {
  const tool = new RegExp(`^${escapeRegExp(grant.tool)}$`);
  return grant.prefix
    ? { tool, command: new RegExp(`^${escapeRegExp(grant.prefix)}(\\s.*)?$`, "s") }
    : { tool };
}

function allows(rules: Rule[], call: { tool: string; args: Record<string, unknown> }): boolean {
  const { tool, args } = call;
  const toolRules = rules.filter((r) => r.tool.test(tool));
  if (toolRules.some((r) => !r.command)) return true;
  const command = typeof args.command === "string" ? args.command : "";
  if (!command.trim() || /`|\$\(|[<>]/.test(command)) return false;
  const commandRules = toolRules.filter((r) => r.command);
  return commandSegments(command).every((seg) => commandRules.some((r) => r.command!.test(seg)));
}

/**
 * Decides who may run what: mode (plan / ask / auto), allow and deny rules, session answers. The mode lives
 * here and only here; the tool pool reads it.
 */
export class ApprovalPolicy {
  /** The approval mode; switching it changes the offered tools from the next request. */
  mode: ApprovalMode;
  #allow: Rule[];
  #deny: Rule[];
  #ask?: AskUser;
  #sandboxAllows?: (tool: string) => Promise<boolean>;
  #grants: Grant[] = [];
  #nextGrant = 1;

  /**
   * The starting `mode`, allow and deny patterns, `ask` (absent: calls needing approval are refused) and
   * `sandboxAllows`: whether a tool runs inside an enforced sandbox that may skip the question in ask mode.
   */
  constructor(opts: {
    mode: ApprovalMode;
    allow?: string[];
    deny?: string[];
    ask?: AskUser;
    sandboxAllows?: (tool: string) => Promise<boolean>;
  }) {
    this.mode = opts.mode;
    this.#sandboxAllows = opts.sandboxAllows;
    this.#allow = (opts.allow ?? []).map(parseRule);
    this.#deny = (opts.deny ?? []).map(parseRule);
    this.#ask = opts.ask;
  }

  /** Decide whether a tool call may run. Deny rules beat everything, `auto` included. */
  async decide(
    call: {
      tool: string;
      approval: ApprovalClass;
      args: Record<string, unknown>;
      /** What the call would change; computed only when the user is asked. */
      preview?: () => Promise<ToolPreview | undefined>;
      /** The tool call's id, passed on to the question. */
      callId?: string;
      /**
       * A PreToolUse hook's decision: `allow` skips the question, `ask` forces it (also for read-only tools
       * and in auto mode). Neither overrides a deny rule or plan mode.
       */
      hook?: "allow" | "ask";
    },
  ): Promise<Decision> {
    const { tool, approval, args, callId } = call;
    if (await denied(this.#deny, { tool, args })) {
      return { allowed: false, how: "denied", error: `Denied: ${tool} is blocked by a deny rule in config` };
    }
    if (this.mode === "plan" && approval !== "read_only") {
      return { allowed: false, how: "plan", error: `Not allowed in plan mode: ${tool} can change things` };
    }
    if (call.hook === "allow") return { allowed: true, how: "hook" };
    if (call.hook !== "ask") {
      if (approval === "read_only") return { allowed: true, how: "read_only" };
      if (this.mode === "auto") return { allowed: true, how: "auto" };
      if (allows(this.#allow, { tool, args })) return { allowed: true, how: "rule" };
      const granted = this.#grants.map(grantRule);
      if (allows(granted, { tool, args })) return { allowed: true, how: "session" };
      if (await this.#sandboxAllows?.(tool)) return { allowed: true, how: "sandbox" };
    }
    const command = typeof args.command === "string" ? args.command : undefined;
    const preview = call.preview ? await call.preview().catch(() => undefined) : undefined;
    const decision = await this.#question({
      tool,
      summary: summarize(args),
      args,
      ...(command !== undefined && suggestPrefix(command) ? { prefix: suggestPrefix(command) } : {}),
      ...(preview ? { preview } : {}),
      ...(preview?.outside !== undefined ? { outside: preview.outside } : {}),
      ...(callId ? { callId } : {}),
    });
    return decision.allowed && preview?.outside !== undefined
      ? { ...decision, outside: preview.outside }
      : decision;
  }

  /** What the user allowed for the rest of the session, oldest first. */
  grants(): Grant[] {
    return this.#grants.map((g) => ({ ...g }));
  }

  /** Take back a session permission by id (all of them without an id); returns how many were removed. */
  revoke(id?: number): number {
    const before = this.#grants.length;
    this.#grants = id === undefined ? [] : this.#grants.filter((g) => g.id !== id);
    return before - this.#grants.length;
  }

  /** An out-of-class action (a path outside the workspace): asked in ask, refused in plan, allowed in auto. */
  async confirm(tool: string, detail: string, opts: { callId?: string } = {}): Promise<boolean> {
    if (this.mode === "auto") return true;
    if (this.mode === "plan") return false;
    if (this.#grants.some((g) => g.outside && g.tool === tool)) return true;
    const question: ApprovalQuestion = {
      tool,
      summary: `outside the workspace: ${detail}`,
      args: {},
      outside: detail,
      ...(opts.callId ? { callId: opts.callId } : {}),
    };
    return (await this.#question(question)).allowed;
  }

  async #question(question: ApprovalQuestion): Promise<Decision> {
    const { tool } = question;
    if (!this.#ask) {
      return {
        allowed: false,
        how: "refused",
        error: `Not approved: ${tool} needs approval; rerun with --approval auto or allow it in config`,
      };
    }
    const raw = await this.#ask(question);
    const reply: Reply = typeof raw === "string" ? { answer: raw } : raw;
    if (reply.answer === "always") {
      const outside = question.outside !== undefined;
      this.#grants.push({
        id: this.#nextGrant++,
        tool,
        ...(reply.prefix && !outside ? { prefix: reply.prefix } : {}),
        ...(outside ? { outside } : {}),
      });
      return { allowed: true, how: "session" };
    }
    if (reply.answer === "yes") return { allowed: true, how: "user" };
    const instead = reply.instead?.trim();
    return {
      allowed: false,
      how: "user",
      error: `The user declined to run ${tool}${instead ? `. The user says instead: ${instead}` : ""}`,
    };
  }
}

/** Shorten tool arguments to one line for a question or a log line. */
export function summarize(args: Record<string, unknown>, max = 120): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  const line = parts.join(" ").replace(/\s+/g, " ");
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}
