import type { ApprovalPolicy, Decision } from "./approval.ts";
import type { ToolRegistry } from "./registry.ts";
import type { Message, Session } from "./session.ts";
import type { ToolCall } from "./stream.ts";
import { parseArguments } from "./tool_define.ts";
import { errorMessage, toModelContent } from "./tool_result.ts";
import type { CommandSandbox, ToolContext, ToolResult } from "./tool_types.ts";

/** What the user interface hears while tool calls run. */
export interface ToolEvents {
  /** A tool call is about to be decided and run. */
  toolStart?(call: ToolCall): void;
  /** Live output of a running tool (e.g. bash). */
  toolOutput?(chunk: string): void;
  /** A tool call ended: its result and how many milliseconds it ran. */
  toolEnd?(call: ToolCall, outcome: { result: ToolResult; ms: number }): void;
}

/** What running one batch of tool calls needs. */
export interface ToolCallRunnerOptions {
  /** Where tools are looked up and run. */
  registry: ToolRegistry;
  /** Decides whether each call may run. */
  policy: ApprovalPolicy;
  /** Receives the tool messages and audit records. */
  session: Session;
  /** Whether the model was offered this tool in the request that asked for it. */
  offered(name: string): boolean;
  /** The workspace root (absolute) handed to tools. */
  workspace: string;
  /** Environment for child processes of tools (navi's secrets removed). */
  childEnv?: () => Record<string, string>;
  /** The OS sandbox child processes of tools (bash) run in. */
  sandbox?: CommandSandbox;
  /** Applied to tool results before they reach the model and the session file (removes known secrets). */
  redact?: (text: string) => string;
  /** Progress callbacks for the user interface. */
  events?: ToolEvents;
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
    const results: ToolResult[] = new Array(calls.length);
    let i = 0;
    while (i < calls.length) {
      // Consecutive concurrency-safe (read-only) calls run together; any other call runs alone, in order.
      let j = i + 1;
      if (this.#safe(calls[i])) { while (j < calls.length && this.#safe(calls[j])) j++; }
      await Promise.all(
        calls.slice(i, j).map(async (call, k) => (results[i + k] = await this.#runOne(call, signal))),
      );
      i = j;
    }
    const { session, redact } = this.#opts;
    const images: Message[] = [];
    calls.forEach((call, n) => {
      const r = results[n];
      const content = toModelContent(r);
      session.addMessage({ role: "tool", tool_call_id: call.id, content: redact?.(content) ?? content });
      if (r._multimodal && typeof r._image_data_url === "string") {
        images.push({
          role: "user",
          content: [
            { type: "text", text: `Image returned by ${call.name} (${call.id}):` },
            { type: "image_url", image_url: { url: r._image_data_url } },
          ],
        });
      }
    });
    for (const m of images) session.addMessage(m);
    return calls.map((call, n) => ({ name: call.name, ok: results[n].ok }));
  }

  #safe(call: ToolCall): boolean {
    return this.#opts.registry.get(call.name)?.concurrencySafe === true;
  }

  async #runOne(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const { session, events = {} } = this.#opts;
    events.toolStart?.(call);
    const started = performance.now();
    const { result, decision, ranAt = started } = await this.#decideAndRun(call, signal);
    const ms = Math.round(performance.now() - ranAt);
    session.audit({
      tool: call.name,
      decision,
      ms,
      ok: result.ok,
      ...(result.ok ? {} : { error: result.error }),
    });
    events.toolEnd?.(call, { result, ms });
    return result;
  }

  async #decideAndRun(
    call: ToolCall,
    signal: AbortSignal,
  ): Promise<{ result: ToolResult; decision: Decision["how"] | "none"; ranAt?: number }> {
    const { registry, policy } = this.#opts;
    const tool = this.#opts.offered(call.name) ? registry.get(call.name) : undefined;
    const fail = (error: string, decision: Decision["how"] | "none" = "none") => ({
      result: { ok: false as const, error },
      decision,
    });
    if (!call.name) return fail("The tool call has no function name");
    if (!tool) return fail(`Unknown tool: ${call.name}`);
    if (signal.aborted) return fail("Aborted by the user");
    let args: Record<string, unknown>;
    try {
      args = parseArguments(call.name, call.arguments);
    } catch (err) {
      return fail(errorMessage(err), "invalid");
    }
    const verdict = await policy.decide({ tool: call.name, approval: tool.approval, args });
    if (!verdict.allowed) return fail(verdict.error ?? "Not approved", verdict.how);
    const ranAt = performance.now();
    const result = await registry.invoke(call.name, args, this.#context(call.name, signal));
    return { result, decision: verdict.how, ranAt };
  }

  #context(tool: string, signal: AbortSignal): ToolContext {
    const { policy, events } = this.#opts;
    return {
      workspace: this.#opts.workspace,
      signal,
      confirm: (req) => policy.confirm(tool, req.detail),
      onOutput: events?.toolOutput ? (c) => events.toolOutput!(c) : undefined,
      childEnv: this.#opts.childEnv,
      sandbox: this.#opts.sandbox,
    };
  }
}
