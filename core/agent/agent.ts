// The Agent: the loop of one conversation's turns (requests, streamed answers, tool-call batches, compaction,
// the turn's hooks). Over 300 lines because the class is the one owner of a turn's state; each step of a turn is
// its own method, and the batch of tool calls lives in tool_calls.ts.
import type { ApprovalPolicy } from "../approval/mod.ts";
import type { CheckpointHooks } from "../checkpoints/mod.ts";
import type { CompactionInfo, ContextKeeper, ContextView } from "../context/mod.ts";
import {
  abortError,
  addUsage,
  type ChatFn,
  emptyUsage,
  isAbort,
  isContextLengthError,
  type ResponseOrigin,
  type RetryInfo,
  type ToolCall,
  type Usage,
} from "../provider/mod.ts";
import type { Session } from "../session/mod.ts";
import type { HookOutcome, SessionHooks } from "../hooks/mod.ts";
import type {
  BackgroundShells,
  CommandRunner,
  CommandSandbox,
  FileAccess,
  OpenAITool,
  SkillLoader,
  SubagentLauncher,
  ToolRegistry,
} from "../tool/mod.ts";
import type { CacheStats, ToolDeferral, ToolList } from "../toollist/mod.ts";
import { compactConversation } from "./compaction.ts";
import { ResponseAssembler } from "./stream.ts";
import { ToolCallRunner, type ToolEvents } from "./tool_calls.ts";

/** What the user interface hears while the agent works. */
export interface AgentEvents extends ToolEvents {
  /** A model request is about to go out; `step` counts the turn's requests from 1. */
  requestStart?(step: number): void;
  /** A piece of the model's answer text, as it streams in. */
  text?(delta: string): void;
  /** A piece of the model's reasoning, as it streams in (before or between the answer's text). */
  reasoning?(delta: string): void;
  /**
   * A model response is complete (or was cut off): its text and how many tool calls it asked for. The agent
   * also sets `calls` (the tool calls, whole, none for a cut response), `usage` (this request's tokens) and,
   * when the request did not extend the previous request's prefix, `cacheBreak` (the first part that changed).
   */
  responseEnd?(info: ResponseInfo): void;
  /** A message from navi itself for the user (tool list changes, the step limit). */
  notice?(text: string): void;
  /** A failed model request will be retried after `info.waitMs` (`info.message` says so in one line). */
  retry?(info: RetryInfo): void;
  /** A compaction starts (`summary` absent) or ends; tokens are estimates of the whole prompt. */
  compaction?(info: CompactionInfo): void;
  /**
   * navi waits for the user: an approval question is asked, or a turn ended (the conversation waits for the
   * next message; a front that ends with its turn, like -p, may ignore it). Terminal notices and the
   * `Notification` hook attach here.
   */
  waitingForUser?(wait: UserWait): void;
  /** A subagent started (the `task` tool); the hooks' `SubagentStart` attaches here. */
  subagentStart?(info: SubagentInfo): void;
  /** A running subagent is calling `tool` (the live line shows it). */
  subagentTool?(info: SubagentInfo, tool: string): void;
  /** A subagent ended: its answer or why not, its tokens and time; the hooks' `SubagentStop` attaches here. */
  subagentEnd?(info: SubagentInfo, end: SubagentEnd): void;
}

/** One subagent run, as the user interface hears of it. */
export interface SubagentInfo {
  /** Its number within the parent session (its transcript is `sessions/<id>/agents/<n>.jsonl`). */
  n: number;
  /** The agent's name. */
  agent: string;
  /** What it was asked to do, in a few words. */
  description: string;
  /** The `task` call it runs for. */
  callId?: string;
  /** How deep it is: 1 for a subagent of the conversation. */
  depth: number;
  /** Its transcript. */
  transcript: string;
}

/** How a subagent run ended. */
export interface SubagentEnd {
  /** Whether it gave an answer (false: maxTurns, an error, an interruption). */
  ok: boolean;
  /** Its final (or partial) answer. */
  text: string;
  /** Why it did not finish, when it did not. */
  error?: string;
  /** Its tokens. */
  usage: Usage;
  /** How long it ran, in milliseconds. */
  ms: number;
}

/** Why navi waits for the user. */
export type UserWait =
  | {
    /** An approval question is on its way to the user. */
    reason: "approval";
    /** The tool the question is about. */
    tool: string;
    /** Its arguments on one line (secrets redacted). */
    summary: string;
  }
  | {
    /** A turn ended: an answer, an error, the step limit or an interruption. */
    reason: "turn_end";
    /** How long the turn took, in milliseconds. */
    ms: number;
    /** Whether it was interrupted. */
    aborted: boolean;
  };
/** What `responseEnd` hears about one model response. */
export interface ResponseInfo {
  /** The response's text. */
  text: string;
  /** How many tool calls it asked for. */
  toolCalls: number;
  /** The tool calls, in order (none when the response was cut off). */
  calls?: ToolCall[];
  /** The tokens of this one request. */
  usage?: Usage;
  /** The first part of the request that differed from the previous request's prefix (a cache break). */
  cacheBreak?: string;
  /** The response was cut off: aborted by the user (`interrupted`) or the stream broke (`cut`). */
  cut?: "interrupted" | "cut";
}

/**
 * What a user turn says: text, or content parts in the Chat Completions shape (`{type: "text", text}`,
 * `{type: "image_url", image_url: {url}}`) for a message with images.
 */
export type UserContent = string | Record<string, unknown>[];

/** The outcome of one user turn. */
export interface TurnResult {
  /**
   * The text of the last completed model response: the answer, unless the turn was cut short (when aborted,
   * the text that arrived of the interrupted response).
   */
  text: string;
  /** Every tool call of the turn, in order, and whether it succeeded. */
  toolCalls: { name: string; ok: boolean }[];
  /** Tokens used by all model requests of the turn. */
  usage: Usage;
  /**
   * The turn was aborted (Ctrl-C, a signal). A response interrupted mid-stream is kept in the session with
   * its text and the `interrupted` marker (CUT_MARKERS); its tool calls are not run.
   */
  aborted: boolean;
  /** The turn ran out of model requests (`maxSteps`) before an answer. */
  stoppedAtLimit: boolean;
  /** A UserPromptSubmit hook blocked the prompt (it was not sent): the hook's reason, also told as a notice. */
  blocked?: string;
}

/** Everything one agent works with. */
export interface AgentOptions {
  /** Where tool calls are looked up and run. */
  registry: ToolRegistry;
  /** The conversation's tool list: each request's tools array, call routing, the cache figures. */
  tools: ToolList;
  /** Keeps the conversation within the model's window (token estimates, when to compact). */
  keeper: ContextKeeper;
  /** Receives every message, tool list change and audit record. */
  session: Session;
  /** Decides whether each tool call may run. */
  policy: ApprovalPolicy;
  /** Sends one model request and streams the response. */
  chat: ChatFn;
  /** The workspace root (absolute) tools work in. */
  workspace: string;
  /** Model requests allowed per turn (default 50). */
  maxSteps?: number;
  /** Environment for child processes of tools (navi's secrets removed). */
  childEnv?: () => Record<string, string>;
  /** The OS sandbox child processes of tools (bash) run in. */
  sandbox?: CommandSandbox;
  /** The session's background shells (bash `run_in_background`, bash_output, kill_shell). */
  shells?: BackgroundShells;
  /** Applied to tool results before they reach the model and the session file (removes known secrets). */
  redact?: (text: string) => string;
  /** Progress callbacks for the user interface. */
  events?: AgentEvents;
  /** Where file tools read and write (default: the local file system). */
  files?: FileAccess;
  /** Where `bash` runs commands (default: local child processes). */
  commandRunner?: CommandRunner;
  /** The model requests go to (read after each turn to record its usage by model). */
  model?: () => string | undefined;
  /** Awaited before each model request (MCP tool-list refreshes already announced land first). */
  beforeRequest?: () => Promise<void>;
  /** Told of the checkpoint before each turn, and around each call that may change files. */
  checkpoints?: CheckpointHooks;
  /** The skills the `skill` tool loads. */
  skills?: SkillLoader;
  /** More directories tools may read without asking (skill folders). */
  readable?: () => string[];
  /** A `<system-reminder>` text for the start of a turn (skills added meanwhile), if any. */
  turnReminder?: () => Promise<string | undefined>;
  /** The clock (ms since the epoch) that stamps request records (default `Date.now`). */
  now?: () => number;
  /** The requests' `prompt_cache_key` (default: the session's id). */
  cacheKey?: string;
  /** Starts subagents for the `task` tool (absent: subagents may not run here). */
  subagents?: SubagentLauncher;
  /** Tools this agent is not offered, and why: a call to one fails with that reason (a subagent's `task`). */
  unavailable?: Record<string, string>;
  /** The session's hooks (UserPromptSubmit, Stop, PreCompact, SessionStart and the tool events). */
  hooks?: SessionHooks;
  /** How the session began, for SessionStart hooks at the first turn (default `startup`). */
  sessionSource?: "startup" | "resume" | "clear";
}

/** The agent loop of one conversation: request, run tool calls, feed results back, until an answer. */
export class Agent {
  /** The session this agent records to (`opts.session`). */
  readonly session: Session;
  /** The conversation's tool list. */
  readonly tools: ToolList;
  /** Keeps the conversation within the model's window: token estimates, compaction, /context. */
  readonly keeper: ContextKeeper;
  #opts: AgentOptions;
  #calls: ToolCallRunner;
  #started?: Promise<void>;

  /** Wire an agent to the registry, tool list, session, approval policy and model in `opts`. */
  constructor(opts: AgentOptions) {
    this.#opts = opts;
    this.session = opts.session;
    this.tools = opts.tools;
    this.keeper = opts.keeper;
    this.#calls = new ToolCallRunner({
      ...opts,
      notice: (line) => opts.events?.notice?.(line),
      route: (call) => {
        const routed = opts.tools.deferral.route(call);
        const why = !routed.tool && opts.unavailable?.[call.name];
        return why ? { call, error: why } : routed;
      },
      fit: (content, id) =>
        this.keeper.fitText(content, { tools: this.tools.sent(), name: id, what: "the result of this call" }),
    });
  }

  /** Decides each request's tools array (the tool list's deferral). */
  get deferral(): ToolDeferral {
    return this.tools.deferral;
  }

  /** The session's prompt-cache figures (the tool list's). */
  get cache(): CacheStats {
    return this.tools.cache;
  }

  /**
   * Run one user turn to its end (an answer, the step limit or an abort). API errors are thrown, also a
   * stream that broke off or ended incomplete; what arrived of it is kept in the session with the `cut`
   * marker and none of its tool calls is run.
   */
  async run(prompt: UserContent, signal: AbortSignal): Promise<TurnResult> {
    const result: TurnResult = {
      text: "",
      toolCalls: [],
      usage: emptyUsage(),
      aborted: false,
      stoppedAtLimit: false,
    };
    const now = this.#opts.now ?? Date.now;
    const started = now();
    try {
      return await this.#turn(prompt, { signal, result });
    } finally {
      this.session.recordUsage(this.#opts.model?.() ?? "unknown", result.usage);
      const ms = Math.round(now() - started);
      this.#opts.events?.waitingForUser?.({
        reason: "turn_end",
        ms,
        aborted: result.aborted || signal.aborted,
      });
    }
  }

  async #turn(prompt: UserContent, opts: { signal: AbortSignal; result: TurnResult }): Promise<TurnResult> {
    const { session, events = {} } = this.#opts;
    const { signal, result } = opts;
    await (this.#started ??= this.#sessionStart(this.#opts.sessionSource ?? "startup", signal));
    const submit = await this.#opts.hooks?.fire("UserPromptSubmit", { prompt: promptText(prompt) }, {
      signal,
    });
    if (submit) this.#hookNotes(submit);
    const refused = submit?.block ?? submit?.stop;
    if (refused !== undefined) {
      events.notice?.(`UserPromptSubmit hook blocked the prompt: ${refused}`);
      return { ...result, blocked: refused };
    }
    this.keeper.checkMessage(prompt, this.deferral.view().tools);
    const mark = session.checkpoint({ kind: "turn", prompt: promptText(prompt) });
    this.#opts.checkpoints?.beginTurn(mark.n);
    session.addMessage({ role: "user", content: prompt });
    this.#addHookContext(submit);
    const reminder = await this.#opts.turnReminder?.().catch(() => undefined);
    if (reminder) {
      session.addMessage({ role: "user", content: `<system-reminder>${reminder}</system-reminder>` });
    }
    const maxSteps = this.#opts.maxSteps ?? 50;
    let stopActive = false;
    for (let step = 1; step <= maxSteps; step++) {
      await this.#opts.beforeRequest?.();
      let tools = this.#syncTools();
      if (
        this.keeper.overBudget(tools) && await this.compact(signal, { reason: "auto", usage: result.usage })
      ) {
        tools = this.#syncTools();
      }
      if (signal.aborted) return { ...result, aborted: true };
      events.requestStart?.(step);
      let response;
      try {
        response = await this.#request(tools, { signal, usage: result.usage });
      } catch (err) {
        if (!isContextLengthError(err) || !this.keeper.compactable()) throw err;
        this.keeper.refused(tools);
        if (!this.keeper.overBudget(tools)) throw err;
        const done = await this.compact(signal, { reason: "context-length", usage: result.usage }).catch(
          () => {
            throw err;
          },
        );
        if (!done) throw err;
        tools = this.#syncTools();
        response = await this.#request(tools, { signal, usage: result.usage });
      }
      result.text = response.text;
      if (response.aborted) {
        result.aborted = true;
        return result;
      }
      if (!response.calls.length) {
        if (!await this.#stopHooks(stopActive, signal)) return result;
        stopActive = true;
        continue;
      }
      result.toolCalls.push(...await this.#calls.run(response.calls, signal));
      if (signal.aborted) {
        result.aborted = true;
        return result;
      }
    }
    result.stoppedAtLimit = true;
    events.notice?.(`Stopped after ${maxSteps} model requests (max_steps).`);
    return result;
  }

  /** SessionStart hooks (once per agent, and after a compaction): their context joins the conversation. */
  async #sessionStart(
    source: "startup" | "resume" | "clear" | "compact",
    signal?: AbortSignal,
  ): Promise<void> {
    const out = await this.#opts.hooks?.fire("SessionStart", { source }, { match: source, signal });
    if (out) this.#hookNotes(out);
    this.#addHookContext(out);
  }

  /** Stop hooks at the end of a turn: true when one blocked the stop (its reason went to the model). */
  async #stopHooks(active: boolean, signal: AbortSignal): Promise<boolean> {
    const hooks = this.#opts.hooks;
    if (!hooks?.has("Stop") || signal.aborted) return false;
    const out = await hooks.fire("Stop", { stop_hook_active: active }, { signal });
    this.#hookNotes(out);
    if (out.stop !== undefined || out.block === undefined) return false;
    this.session.addMessage({
      role: "user",
      content: `<system-reminder>A Stop hook asks you to continue: ${out.block}</system-reminder>`,
    });
    return true;
  }

  /** Tell the user a hook outcome's messages. */
  #hookNotes(out: HookOutcome): void {
    for (const line of out.messages) this.#opts.events?.notice?.(line);
  }

  #addHookContext(out: HookOutcome | undefined): void {
    if (!out?.context.length) return;
    this.session.addMessage({
      role: "user",
      content: `<system-reminder>\n${out.context.join("\n")}\n</system-reminder>`,
    });
  }

  /** What the next request would carry, part by part, against the model's window (for /context). */
  context(): ContextView {
    return this.keeper.view(this.deferral.view().tools);
  }

  /** Replace the conversation by a summary of it, in the same session (see compactConversation). */
  async compact(
    signal: AbortSignal,
    opts: { reason: CompactionInfo["reason"]; usage?: Usage },
  ): Promise<CompactionInfo | undefined> {
    const { session, chat, events, hooks } = this.#opts;
    const trigger = opts.reason === "manual" ? "manual" : "auto";
    if (hooks?.has("PreCompact")) {
      this.#hookNotes(
        await hooks.fire("PreCompact", { trigger, custom_instructions: "" }, { match: trigger }),
      );
    }
    const run = {
      session,
      keeper: this.keeper,
      cache: this.cache,
      chat,
      onCompaction: events?.compaction,
      now: this.#opts.now,
    };
    const info = await compactConversation(run, this.tools.sent(), { ...opts, signal });
    if (info?.summary !== undefined) await this.#sessionStart("compact", signal);
    return info;
  }

  #syncTools(): readonly OpenAITool[] {
    const { session, events } = this.#opts;
    const step = this.deferral.next({ conversationTokens: () => this.cache.tokens(session.messages) });
    if (step.changed) session.recordTools(step.tools);
    if (step.stateChanged) session.recordDeferred(this.deferral.state());
    if (step.reminder) {
      session.addMessage({ role: "user", content: `<system-reminder>${step.reminder}</system-reminder>` });
    }
    if (step.notice) events?.notice?.(step.notice);
    return step.tools;
  }

  async #request(tools: readonly OpenAITool[], opts: { signal: AbortSignal; usage: Usage }) {
    const { session, events = {} } = this.#opts;
    const at = new Date((this.#opts.now ?? Date.now)()).toISOString();
    const sent = session.messages.length;
    const changed = this.cache.observe({ tools, messages: session.messages });
    const raw = this.keeper.tokens.raw([...tools, ...session.messages]);
    const usage = emptyUsage();
    const response = new ResponseAssembler(usage, {
      onText: events.text,
      onReasoning: events.reasoning,
      onToolName: (name) => {
        if (!tools.some((t) => t.function.name === name)) return;
        const tool = this.#opts.registry.get(name);
        tool?.warm?.();
        if (tool && tool.approval !== "read_only" && !tool.writes) this.#opts.checkpoints?.expect();
      },
    });
    const onRetry = events.retry && ((info: RetryInfo) => events.retry!(info));
    try {
      const req = { messages: session.messages, tools, cacheKey: this.#opts.cacheKey ?? session.meta.id };
      const onOpen = (origin: ResponseOrigin) => void (response.origin = origin);
      for await (const chunk of this.#opts.chat(req, opts.signal, { onRetry, onOpen })) response.add(chunk);
      if (opts.signal.aborted) throw abortError(opts.signal);
    } catch (err) {
      const aborted = isAbort(err, opts.signal);
      const cut = aborted ? "interrupted" : "cut";
      const partial = response.partialMessage(cut);
      if (partial) session.addMessage(partial);
      events.responseEnd?.({
        text: response.text,
        toolCalls: 0,
        calls: [],
        usage: { ...usage },
        ...(changed ? { cacheBreak: changed } : {}),
        cut,
      });
      if (!aborted) throw err;
      return { text: response.text, calls: [], aborted: true };
    } finally {
      addUsage(opts.usage, usage);
      this.keeper.tokens.calibrate(raw, usage.prompt_tokens);
      session.recordRequest(this.cache.record({
        at,
        messages: sent,
        prompt_tokens: usage.prompt_tokens,
        cached_tokens: usage.cached_tokens,
        ...(usage.cache_write_tokens ? { cache_write_tokens: usage.cache_write_tokens } : {}),
        ...(changed ? { break: changed } : {}),
      }));
    }
    const calls = response.calls();
    session.addMessage(this.keeper.fitToolCalls(response.message(), tools));
    events.responseEnd?.({
      text: response.text,
      toolCalls: calls.length,
      calls,
      usage: { ...usage },
      ...(changed ? { cacheBreak: changed } : {}),
    });
    return { text: response.text, calls, aborted: false };
  }
}

/** The text of a prompt (its text parts, when it has parts), for the turn's checkpoint. */
function promptText(prompt: UserContent): string {
  if (typeof prompt === "string") return prompt;
  return prompt.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join(" ").trim();
}
