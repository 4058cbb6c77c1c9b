// The loaded hooks of one navi process, and the hooks of one session: which hooks match an event, running them
// in parallel (commands through the lazily loaded runner, plugin handlers in their workers), the audit and
// the last result of each for `/hooks`.
import type { PluginHookSpec } from "../plugins/mod.ts";
import {
  type CommandHook,
  HOOK_EVENTS,
  type HookAudit,
  type HookEvent,
  type HookOutcome,
  type HookSessionInfo,
  type HookSource,
  noOutcome,
  type PluginHook,
  type SkippedHook,
  type ToolHookCall,
} from "./types.ts";

/** One loaded hook with its last result, as `/hooks` lists it. */
export interface HookListing {
  /** The event. */
  event: HookEvent;
  /** The matcher ("" for all). */
  matcher: string;
  /** The command, or `plugin <name>`. */
  command: string;
  /** The file and line it came from (or the plugin). */
  source: string;
  /** user, project or plugin. */
  level: HookSource["level"];
  /** Whether it runs inside the sandbox. */
  confined: boolean;
  /** The last run: exit code (or how it ended), result word and milliseconds. */
  last?: HookAudit;
}

/** How to build the hooks of a process. */
export interface HooksOptions {
  /** The command hooks loaded from settings files. */
  commands?: readonly CommandHook[];
  /** Hooks found but not run. */
  skipped?: readonly SkippedHook[];
  /** The workspace (hooks run in it; `NAVI_PROJECT_DIR`, `CLAUDE_PROJECT_DIR`). */
  workspace: string;
  /** The environment for hook processes (navi's secrets removed). */
  childEnv(): Record<string, string>;
  /** Removes known secrets from what hooks print before it goes anywhere. */
  redact?(text: string): string;
}

const MODES: Record<string, string> = { ask: "default", auto: "bypassPermissions", plan: "plan" };

/** The hooks of one navi process. Holds nothing running; `session()` gives the hooks of one conversation. */
export class Hooks {
  #opts: HooksOptions;
  #commands: CommandHook[];
  #plugins: PluginHook[] = [];
  #last = new Map<object, HookAudit>();
  #running = new Set<AbortController>();

  /** Hooks from `opts.commands` (none: nothing is ever spawned). */
  constructor(opts: HooksOptions) {
    this.#opts = opts;
    this.#commands = [...(opts.commands ?? [])];
  }

  /** Whether any hook (command or plugin) is configured for `event`. */
  has(event: HookEvent): boolean {
    return this.#commands.some((h) => h.event === event) || this.#plugins.some((h) => h.event === event);
  }

  /**
   * Replace the plugins' hooks (after plugins loaded or reloaded); returns one line per hook that cannot run
   * (an unknown event, an invalid matcher), naming the plugin.
   */
  async setPluginHooks(specs: readonly PluginHookSpec[]): Promise<string[]> {
    this.#plugins = [];
    if (!specs.length) return [];
    const { compileMatcher, expressionsFor } = await import("./matcher.ts");
    const re2 = await expressionsFor(specs.map((s) => s.matcher));
    const problems: string[] = [];
    for (const spec of specs) {
      if (!(HOOK_EVENTS as readonly string[]).includes(spec.event)) {
        problems.push(`plugin ${spec.plugin}: navi.on(${JSON.stringify(spec.event)}): no such hook event`);
        continue;
      }
      const m = compileMatcher(spec.matcher, re2);
      if ("error" in m) {
        problems.push(`plugin ${spec.plugin}: navi.on(${JSON.stringify(spec.event)}): ${m.error}`);
        continue;
      }
      this.#plugins.push({ ...spec, event: spec.event as HookEvent, matches: m.test });
    }
    return problems;
  }

  /** Hooks that were found but are not run (unknown events, other hook types). */
  get skipped(): readonly SkippedHook[] {
    return this.#opts.skipped ?? [];
  }

  /** Every loaded hook with its source and last result, for `/hooks`. */
  list(): HookListing[] {
    const commands = this.#commands.map((h): HookListing => ({
      event: h.event,
      matcher: h.matcher,
      command: h.command,
      source: h.line ? `${h.source.file}:${h.line}` : h.source.file,
      level: h.source.level,
      confined: h.confined,
      ...(this.#last.has(h) ? { last: this.#last.get(h) } : {}),
    }));
    const plugins = this.#plugins.map((h): HookListing => ({
      event: h.event,
      matcher: h.matcher,
      command: `plugin ${h.plugin}`,
      source: `plugin ${h.plugin}`,
      level: "plugin",
      confined: true,
      ...(this.#last.has(h) ? { last: this.#last.get(h) } : {}),
    }));
    return [...commands, ...plugins];
  }

  /** The hooks of one session. */
  session(info: HookSessionInfo): SessionHooks {
    return new SessionHooks(this, info);
  }

  /** End every running hook (navi is closing, SIGTERM). */
  close(): void {
    for (const c of this.#running) c.abort();
  }

  /** Run the hooks of `event` matching `match` with `fields`; see SessionHooks.fire. */
  async run(
    info: HookSessionInfo,
    req: {
      event: HookEvent;
      match?: string;
      fields: Record<string, unknown>;
      tool?: ToolHookCall;
      signal?: AbortSignal;
    },
  ): Promise<HookOutcome> {
    const plugins = this.#plugins.filter((h) => h.event === req.event && h.matches(req.match));
    const commands = this.#commands.filter((h) => h.event === req.event);
    if (!commands.length && !plugins.length) return noOutcome();
    const { runEvent } = await import("./fire.ts");
    const stop = new AbortController();
    this.#running.add(stop);
    const signal = req.signal ? AbortSignal.any([req.signal, stop.signal]) : stop.signal;
    try {
      return await runEvent({ ...req, signal }, {
        commands,
        plugins,
        info,
        workspace: this.#opts.workspace,
        env: this.#opts.childEnv,
        redact: this.#opts.redact,
        mode: MODES[info.mode()] ?? info.mode(),
        remember: (hook, audit) => {
          this.#last.set(hook, audit);
          info.audit?.(audit);
        },
      });
    } finally {
      this.#running.delete(stop);
    }
  }
}

/**
 * The hooks of one session: what the agent, the tool-call runner and the conversation call. `fire` is also the
 * entry for features outside this folder (subagents: `fire("SubagentStart" | "SubagentStop", {...})`).
 */
export class SessionHooks {
  #hooks: Hooks;
  #info: HookSessionInfo;
  #inflight = new Set<Promise<unknown>>();

  /** The hooks of `hooks` for the session `info`. */
  constructor(hooks: Hooks, info: HookSessionInfo) {
    this.#hooks = hooks;
    this.#info = info;
  }

  /** Whether any hook is configured for `event` (nothing else is computed when none is). */
  has(event: HookEvent): boolean {
    return this.#hooks.has(event);
  }

  /**
   * Run the hooks of `event` (in parallel, each bounded by its timeout) with the common input fields plus
   * `fields`; `match` is what matchers are tested against (a session source, a notification type). Never
   * throws; with no matching hook it spawns nothing and returns at once.
   */
  fire(
    event: HookEvent,
    fields: Record<string, unknown> = {},
    opts: { match?: string; signal?: AbortSignal } = {},
  ): Promise<HookOutcome> {
    if (!this.has(event)) return Promise.resolve(noOutcome());
    const run = this.#hooks.run(this.#info, { event, fields, ...opts }).catch(() => noOutcome());
    this.#inflight.add(run);
    void run.then(() => this.#inflight.delete(run));
    return run;
  }

  /**
   * The hooks as one subagent's loop sees them: its tool calls fire the tool events as the parent's do, its
   * end fires `SubagentStop` (with `agent_id`, `agent_type`, `agent_transcript_path`; matched against the agent
   * type) where a conversation's fires `Stop`, and it fires no `UserPromptSubmit` or `SessionStart`.
   */
  forSubagent(agent: SubagentHookInfo): SessionHooks {
    return new SubagentHooks(this.#hooks, this.#info, agent);
  }

  /** Wait for the hooks still running (a Notification nobody awaited) before the session ends. */
  async settle(): Promise<void> {
    while (this.#inflight.size) await Promise.all([...this.#inflight]);
  }

  /** Run the tool hooks of `event` for `call` (names and inputs in each hook's vocabulary). */
  tool(
    event: "PreToolUse" | "PostToolUse" | "PostToolUseFailure",
    call: ToolHookCall,
    opts: { fields?: Record<string, unknown>; signal?: AbortSignal } = {},
  ): Promise<HookOutcome> {
    if (!this.has(event)) return Promise.resolve(noOutcome());
    return this.#hooks.run(this.#info, {
      event,
      fields: opts.fields ?? {},
      tool: call,
      match: call.tool,
      signal: opts.signal,
    }).catch(() => noOutcome());
  }
}

/** Which subagent a {@link SessionHooks.forSubagent} view is for. */
export interface SubagentHookInfo {
  /** A unique id of this run (`agent_id`). */
  id: string;
  /** The agent's name (`agent_type`, what matchers see). */
  type: string;
  /** The run's transcript file (`agent_transcript_path`). */
  transcript: string;
}

const NOT_IN_SUBAGENTS = new Set<HookEvent>(["UserPromptSubmit", "SessionStart", "SessionEnd"]);

/** A subagent's view of its session's hooks (see {@link SessionHooks.forSubagent}). */
class SubagentHooks extends SessionHooks {
  #agent: SubagentHookInfo;

  constructor(hooks: Hooks, info: HookSessionInfo, agent: SubagentHookInfo) {
    super(hooks, info);
    this.#agent = agent;
  }

  override has(event: HookEvent): boolean {
    if (NOT_IN_SUBAGENTS.has(event)) return false;
    return super.has(event === "Stop" ? "SubagentStop" : event);
  }

  override fire(
    event: HookEvent,
    fields: Record<string, unknown> = {},
    opts: { match?: string; signal?: AbortSignal } = {},
  ): Promise<HookOutcome> {
    if (NOT_IN_SUBAGENTS.has(event)) return Promise.resolve(noOutcome());
    if (event !== "Stop") return super.fire(event, fields, opts);
    const a = this.#agent;
    const own = { agent_id: a.id, agent_type: a.type, agent_transcript_path: a.transcript };
    return super.fire("SubagentStop", { ...fields, ...own }, { ...opts, match: a.type });
  }
}
