// The one place every tool call passes: routing (deferred tools, call_tool), the PreToolUse hooks, approval,
// checkpoints, concurrency, audit and the PostToolUse hooks. Over 300 lines because a call's path
// through them is one sequence, kept in one class so that no kind of tool can skip a step.
import type { RoutedCall } from "../toollist/mod.ts";
import type { ApprovalPolicy, Decision } from "../approval/mod.ts";
import {
  type BackgroundShells,
  type CommandRunner,
  type CommandSandbox,
  errorMessage,
  type FileAccess,
  parseArguments,
  type SkillLoader,
  type SubagentLauncher,
  type TodoBoard,
  type TodoItem,
  toModelContent,
  type ToolContext,
  type ToolPreview,
  type ToolProgress,
  type ToolRegistry,
  type ToolResult,
} from "../tool/mod.ts";
import type { Message, ToolCall } from "../provider/mod.ts";
import type { Session } from "../session/mod.ts";
import type { CheckpointHooks, FileEffect } from "../checkpoints/mod.ts";
import type { Tool } from "../tool/mod.ts";
import type { HookOutcome, SessionHooks } from "../hooks/mod.ts";

/** What the user interface hears while tool calls run. */
export interface ToolEvents {
  /** A tool call is about to be decided and run. */
  toolStart?(call: ToolCall): void;
  /** Live output of a running tool (e.g. bash); `call` is the call it belongs to (the agent always sets it). */
  toolOutput?(chunk: string, call?: ToolCall): void;
  /** How the approval policy decided a call whose arguments were valid (before it runs, or instead). */
  toolDecision?(call: ToolCall, decision: Decision): void;
  /** Progress of a long call (MCP progress notifications). */
  toolProgress?(call: ToolCall, progress: ToolProgress): void;
  /** What an allowed call will change, when nobody was asked (a session "always", a rule, auto mode). */
  toolPreview?(call: ToolCall, preview: ToolPreview): void;
  /**
   * A tool call ended: its result, how many milliseconds it ran, and `content`, the tool message as the model
   * receives it (secrets redacted; a cut result names the file that keeps the whole). The agent always sets
   * `content`.
   */
  toolEnd?(call: ToolCall, outcome: { result: ToolResult; ms: number; content?: string }): void;
  /**
   * The plan changed: the session's whole todo list as the model just wrote it (todo_write). Fronts show it
   * (the REPL's checklist, ACP `plan` updates, a stream-json `plan` event).
   */
  plan?(items: readonly TodoItem[]): void;
}

/** What running one batch of tool calls needs. */
export interface ToolCallRunnerOptions {
  /** Where tools are looked up and run. */
  registry: ToolRegistry;
  /** Decides whether each call may run. */
  policy: ApprovalPolicy;
  /** Receives the tool messages and audit records. */
  session: Session;
  /** Whether the model was offered this tool in the request that asked for it (when `route` is absent). */
  offered?(name: string): boolean;
  /** Resolves each call to the tool that runs it (`call_tool` names its real tool); default: `offered`. */
  route?(call: ToolCall): RoutedCall;
  /** The workspace root (absolute) handed to tools. */
  workspace: string;
  /** Environment for child processes of tools (navi's secrets removed). */
  childEnv?: () => Record<string, string>;
  /** The OS sandbox child processes of tools (bash) run in. */
  sandbox?: CommandSandbox;
  /** Applied to tool results before they reach the model and the session file (removes known secrets). */
  redact?: (text: string) => string;
  /** The session's background shells, handed to tools (bash, bash_output, kill_shell). */
  shells?: BackgroundShells;
  /** Progress callbacks for the user interface. */
  events?: ToolEvents;
  /** Where file tools read and write (default: the local file system). */
  files?: FileAccess;
  /** Where `bash` runs commands (default: local child processes). */
  commandRunner?: CommandRunner;
  /** A result's content as the conversation keeps it (a note in place of one too large for the window). */
  fit?(content: string, callId: string): string;
  /** The skills the `skill` tool loads. */
  skills?: SkillLoader;
  /** More directories tools may read without asking (skill folders). */
  readable?: () => string[];
  /** Keeps what each call may change in the workspace (absent: nothing is kept). */
  checkpoints?: CheckpointHooks;
  /** Starts subagents for the `task` tool. */
  subagents?: SubagentLauncher;
  /** The session's hooks: PreToolUse before the approval decision, PostToolUse(Failure) after the call. */
  hooks?: SessionHooks;
  /** A line for the user (a hook's system message or non-blocking error). */
  notice?(line: string): void;
}

/**
 * What a call may change in the workspace: the files it declares (`writes`), any file for a tool that is not
 * read-only, nothing for a read-only one. Decided by the tool's declaration and approval class, not its name.
 */
export function fileEffect(tool: Tool, args: Record<string, unknown>): FileEffect | undefined {
  const named = tool.writes?.(args);
  if (named) return { files: named };
  return tool.approval === "read_only" ? undefined : "any";
}

/** The session's todo list for tools: kept in the session, each write announced as a `plan` event. */
function todoBoard(session: Session, events: ToolEvents | undefined): TodoBoard {
  return {
    items: () => session.todos,
    write: (items) => {
      session.recordTodos(items);
      events?.plan?.(session.todos);
    },
  };
}

/** Runs the tool calls of one model response: approval, audit, concurrency, results back in call order. */
export class ToolCallRunner {
  #opts: ToolCallRunnerOptions;

  /** Run calls with the registry, approval policy and session in `opts`. */
  constructor(opts: ToolCallRunnerOptions) {
    this.#opts = opts;
  }

  /** Run `calls`, append one tool message per call (in call order) and any images; returns the outcomes. */
  async run(calls: ToolCall[], signal: AbortSignal): Promise<{ name: string; ok: boolean }[]> {
    const routed = calls.map((call) => this.#route(call));
    const results: { result: ToolResult; content: string }[] = new Array(calls.length);
    const safe = (r: RoutedCall) => r.tool?.concurrencySafe === true;
    let i = 0;
    while (i < routed.length) {
      // Consecutive concurrency-safe (read-only) calls run together; any other call runs alone, in order.
      let j = i + 1;
      if (safe(routed[i])) { while (j < routed.length && safe(routed[j])) j++; }
      await Promise.all(
        routed.slice(i, j).map(async (r, k) => (results[i + k] = await this.#runOne(r, signal))),
      );
      i = j;
    }
    const { session } = this.#opts;
    const images: Message[] = [];
    calls.forEach((call, n) => {
      const { result: r, content } = results[n];
      session.addMessage({ role: "tool", tool_call_id: call.id, content });
      if (r._multimodal && typeof r._image_data_url === "string") {
        images.push({
          role: "user",
          content: [
            { type: "text", text: `Image returned by ${routed[n].call.name} (${call.id}):` },
            { type: "image_url", image_url: { url: r._image_data_url } },
          ],
        });
      }
    });
    for (const m of images) session.addMessage(m);
    return routed.map((r, n) => ({ name: r.call.name, ok: results[n].result.ok }));
  }

  #route(call: ToolCall): RoutedCall {
    if (this.#opts.route) return this.#opts.route(call);
    const tool = this.#opts.offered?.(call.name) ? this.#opts.registry.get(call.name) : undefined;
    return tool ? { call, tool } : { call, error: `Unknown tool: ${call.name}` };
  }

  async #runOne(routed: RoutedCall, signal: AbortSignal): Promise<{ result: ToolResult; content: string }> {
    const { session, redact, events = {} } = this.#opts;
    const { call, via } = routed;
    events.toolStart?.(call);
    const started = performance.now();
    const { result, decision, ranAt = started } = await this.#decideAndRun(routed, signal);
    const ms = Math.round(performance.now() - ranAt);
    session.audit({
      tool: call.name,
      decision,
      ms,
      ok: result.ok,
      ...(result.ok ? {} : { error: result.error }),
      ...(via ? { via } : {}),
    });
    const kept = keepWhole(result, { session, id: call.id });
    const raw = toModelContent(kept);
    const redacted = redact?.(raw) ?? raw;
    const content = this.#opts.fit?.(redacted, call.id) ?? redacted;
    events.toolEnd?.(call, { result, ms, content });
    return { result: kept, content };
  }

  async #decideAndRun(
    routed: RoutedCall,
    signal: AbortSignal,
  ): Promise<{ result: ToolResult; decision: Decision["how"] | "none"; ranAt?: number }> {
    const { policy } = this.#opts;
    const { call, tool } = routed;
    const fail = (error: string, decision: Decision["how"] | "none" = "none") => ({
      result: { ok: false as const, error },
      decision,
    });
    if (!call.name) return fail("The tool call has no function name");
    if (!tool) return fail(routed.error ?? `Unknown tool: ${call.name}`);
    if (signal.aborted) return fail("Aborted by the user");
    let args: Record<string, unknown>;
    try {
      args = parseArguments(call.name, call.arguments);
    } catch (err) {
      return fail(errorMessage(err), "invalid");
    }
    const pre = await this.#preHooks({ call, tool, args }, signal);
    if (signal.aborted) return fail("Aborted by the user");
    if ("error" in pre) return fail(pre.error, "hook");
    args = pre.args;
    // The preview may look outside the workspace (to show the diff); the question then says so, once.
    let outside: string | undefined;
    let previewed = false;
    const previewContext = {
      ...this.#context(call, signal),
      confirm: (req: { detail: string }) => {
        outside = req.detail;
        return Promise.resolve(true);
      },
    };
    const preview = async () => {
      previewed = true;
      const p = await tool.preview!(args, previewContext);
      return p && outside !== undefined ? { ...p, outside } : p;
    };
    const verdict = await policy.decide({
      tool: call.name,
      approval: tool.approval,
      args,
      callId: call.id,
      ...(tool.preview ? { preview } : {}),
      ...(pre.permission ? { hook: pre.permission } : {}),
    });
    this.#opts.events?.toolDecision?.(call, verdict);
    if (!verdict.allowed) return fail(verdict.error ?? "Not approved", verdict.how);
    const { events } = this.#opts;
    if (!previewed && tool.preview && events?.toolPreview) {
      const shown = await preview().catch(() => undefined);
      if (shown) events.toolPreview(call, shown);
    }
    const effect = fileEffect(tool, args);
    const capture = effect && await this.#opts.checkpoints?.beforeCall({ tool: call.name, effect });
    const ranAt = performance.now();
    const result = await tool.run(args, this.#context(call, signal, verdict.outside));
    const ran = performance.now() - ranAt;
    await capture?.done();
    const after = await this.#postHooks({ call, args, result }, signal);
    return { result: after, decision: verdict.how, ranAt: performance.now() - ran };
  }

  /** PreToolUse: a block or deny ends the call with the hook's reason; updatedInput is checked and used. */
  async #preHooks(
    at: { call: ToolCall; tool: Tool; args: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<{ error: string } | { args: Record<string, unknown>; permission?: "allow" | "ask" }> {
    const hooks = this.#opts.hooks;
    if (!hooks?.has("PreToolUse")) return { args: at.args };
    const pre = await hooks.tool("PreToolUse", { tool: at.call.name, args: at.args, callId: at.call.id }, {
      signal,
    });
    this.#tell(pre);
    if (pre.block !== undefined) return { error: pre.block };
    if (pre.stop !== undefined) return { error: `A hook stopped this call: ${pre.stop}` };
    if (pre.permission === "deny") {
      return { error: pre.reason ?? `${at.call.name} was denied by a PreToolUse hook` };
    }
    let args = at.args;
    if (pre.updatedInput) {
      const bad = at.tool.check?.(pre.updatedInput);
      if (bad) return { error: `A PreToolUse hook's updatedInput is not valid: ${bad}` };
      args = pre.updatedInput;
    }
    const permission = pre.permission === "allow" || pre.permission === "ask" ? pre.permission : undefined;
    return { args, ...(permission ? { permission } : {}) };
  }

  /** PostToolUse (or PostToolUseFailure): what the hooks say back goes to the model with the result. */
  async #postHooks(
    at: { call: ToolCall; args: Record<string, unknown>; result: ToolResult },
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const hooks = this.#opts.hooks;
    const event = at.result.ok ? "PostToolUse" : "PostToolUseFailure";
    if (!hooks?.has(event)) return at.result;
    const fields = at.result.ok
      ? { tool_response: at.result }
      : { error: at.result.error, is_interrupt: signal.aborted };
    const post = await hooks.tool(event, { tool: at.call.name, args: at.args, callId: at.call.id }, {
      fields,
    });
    this.#tell(post);
    const said = [post.block, ...post.context].filter(Boolean).join("\n");
    return said ? { ...at.result, hook_feedback: said } : at.result;
  }

  #tell(outcome: HookOutcome): void {
    for (const line of outcome.messages) this.#opts.notice?.(line);
  }

  #context(call: ToolCall, signal: AbortSignal, allowedOutside?: string): ToolContext {
    const { policy, events } = this.#opts;
    return {
      workspace: this.#opts.workspace,
      callId: call.id,
      signal,
      confirm: (req) =>
        req.detail === allowedOutside
          ? Promise.resolve(true)
          : policy.confirm(call.name, req.detail, { callId: call.id }),
      onOutput: events?.toolOutput ? (c) => events.toolOutput!(c, call) : undefined,
      onProgress: events?.toolProgress ? (p) => events.toolProgress!(call, p) : undefined,
      childEnv: this.#opts.childEnv,
      sandbox: this.#opts.sandbox,
      readable: [
        this.#opts.session.outputDir,
        this.#opts.session.shellDir,
        ...(this.#opts.readable?.() ?? []),
      ],
      shells: this.#opts.shells,
      todos: todoBoard(this.#opts.session, events),
      ...(this.#opts.skills ? { skills: this.#opts.skills } : {}),
      ...(this.#opts.subagents ? { subagents: this.#opts.subagents } : {}),
      ...(this.#opts.files ? { files: this.#opts.files } : {}),
      ...(this.#opts.commandRunner ? { commandRunner: this.#opts.commandRunner } : {}),
    };
  }
}

/**
 * A cut result whose whole text came along (`_full_output`): the text is saved in the session's folder and the
 * model is told where, so it can read the rest with read_file instead of running the tool again.
 */
function keepWhole(result: ToolResult, opts: { session: Session; id: string }): ToolResult {
  const whole = result._full_output;
  if (typeof whole !== "string") return result;
  try {
    const path = opts.session.saveOutput(opts.id, whole);
    const lines = whole.split("\n").length;
    const note =
      `The result was cut. The whole output (${whole.length} characters, ${lines} lines) is in ${path}: ` +
      "read the part you need with read_file (offset and limit) rather than running the tool again.";
    return { ...result, full_output: path, note: result.note ? `${result.note} ${note}` : note };
  } catch {
    return result;
  }
}
