import type { ApprovalPolicy } from "./approval.ts";
import { type ChatFn, isAbort } from "./llm.ts";
import type { OpenAITool, ToolRegistry } from "./registry.ts";
import type { Message, Session } from "./session.ts";
import { toModelContent, type ToolContext, type ToolResult } from "./tool.ts";
import { diffTools, type ToolPool } from "./tool_pool.ts";

/** A tool call as the model sent it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What the user interface hears while the agent works. */
export interface AgentEvents {
  requestStart?(step: number): void;
  text?(delta: string): void;
  responseEnd?(info: { text: string; toolCalls: number }): void;
  toolStart?(call: ToolCall): void;
  toolOutput?(chunk: string): void;
  toolEnd?(call: ToolCall, outcome: { result: ToolResult; ms: number }): void;
  notice?(text: string): void;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Prompt tokens the provider served from its prompt cache, when it reports them. */
  cached_tokens: number;
}

/** The outcome of one user turn. */
export interface TurnResult {
  text: string;
  toolCalls: { name: string; ok: boolean }[];
  usage: Usage;
  aborted: boolean;
  stoppedAtLimit: boolean;
}

export interface AgentOptions {
  registry: ToolRegistry;
  pool: ToolPool;
  session: Session;
  policy: ApprovalPolicy;
  chat: ChatFn;
  workspace: string;
  maxSteps?: number;
  childEnv?: () => Record<string, string>;
  /** Applied to tool results before they reach the model and the session file (removes known secrets). */
  redact?: (text: string) => string;
  events?: AgentEvents;
}

const COMPACT_PROMPT = [
  "Summarize this conversation so that it can continue in a new one without the old messages.",
  "Keep: the user's goals and constraints, decisions made, files read or changed (with paths), commands run",
  "and their outcome, open problems and the next steps. Be concise and factual; do not call tools.",
].join(" ");

/** The agent loop of one conversation: request, run tool calls, feed results back, until an answer. */
export class Agent {
  #o: AgentOptions;
  #lastTools?: readonly OpenAITool[];

  constructor(opts: AgentOptions) {
    this.#o = opts;
    this.#lastTools = opts.session.tools;
  }

  get session(): Session {
    return this.#o.session;
  }

  /** Run one user turn to its end (an answer, the step limit or an abort). API errors are thrown. */
  async run(prompt: string, signal: AbortSignal): Promise<TurnResult> {
    const { session, events = {} } = this.#o;
    const result: TurnResult = {
      text: "",
      toolCalls: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 },
      aborted: false,
      stoppedAtLimit: false,
    };
    session.addMessage({ role: "user", content: prompt });
    const maxSteps = this.#o.maxSteps ?? 50;
    for (let step = 1; step <= maxSteps; step++) {
      const tools = this.#syncTools();
      events.requestStart?.(step);
      const response = await this.#request(tools, { signal, turn: result });
      if (response.aborted) {
        result.aborted = true;
        return result;
      }
      result.text = response.text;
      if (!response.calls.length) return result;
      await this.#runCalls(response.calls, { signal, turn: result });
      if (signal.aborted) {
        result.aborted = true;
        return result;
      }
    }
    result.stoppedAtLimit = true;
    events.notice?.(`Stopped after ${maxSteps} model requests (max_steps).`);
    return result;
  }

  /** Ask the model for a summary of the conversation so far (for /compact); nothing is recorded. */
  async summarize(signal: AbortSignal): Promise<string> {
    const messages = [...this.#o.session.messages, { role: "user" as const, content: COMPACT_PROMPT }];
    let text = "";
    for await (const chunk of this.#o.chat({ messages, tools: [] }, signal)) {
      const delta = chunk.choices?.[0]?.delta?.content;
      if (typeof delta === "string") text += delta;
    }
    return text.trim();
  }

  #syncTools(): readonly OpenAITool[] {
    const tools = this.#o.pool.current();
    if (tools === this.#lastTools) return tools;
    const previous = this.#lastTools;
    this.#lastTools = tools;
    this.#o.session.recordTools(tools);
    if (!previous) return tools;
    const { added, removed, changed } = diffTools(previous, tools);
    const parts = [
      added.length ? `Tools added: ${added.join(", ")}.` : "",
      removed.length ? `Tools removed: ${removed.join(", ")}.` : "",
      changed.length ? `Tools updated: ${changed.join(", ")}.` : "",
    ].filter(Boolean);
    if (parts.length) {
      this.#o.session.addMessage({
        role: "user",
        content: `<system-reminder>${parts.join(" ")}</system-reminder>`,
      });
      this.#o.events?.notice?.(parts.join(" "));
    }
    return tools;
  }

  async #request(tools: readonly OpenAITool[], opts: { signal: AbortSignal; turn: TurnResult }) {
    const { signal, turn: result } = opts;
    const { session, events = {} } = this.#o;
    let text = "";
    const calls: ToolCall[] = [];
    try {
      for await (const chunk of this.#o.chat({ messages: session.messages, tools }, signal)) {
        if (chunk.usage) {
          result.usage.prompt_tokens += chunk.usage.prompt_tokens ?? 0;
          result.usage.completion_tokens += chunk.usage.completion_tokens ?? 0;
          result.usage.total_tokens += chunk.usage.total_tokens ?? 0;
          result.usage.cached_tokens += chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
        const delta = chunk.choices?.[0]?.delta;
        if (!delta) continue;
        if (typeof delta.content === "string" && delta.content) {
          text += delta.content;
          events.text?.(delta.content);
        }
        for (const tc of delta.tool_calls ?? []) {
          const index = tc.index ?? calls.length;
          const call = calls[index] ??= { id: "", name: "", arguments: "" };
          if (tc.id) call.id = tc.id;
          if (tc.function?.name) call.name += tc.function.name;
          if (tc.function?.arguments) call.arguments += tc.function.arguments;
        }
      }
    } catch (err) {
      if (!isAbort(err, signal)) throw err;
      if (text) session.addMessage({ role: "assistant", content: text });
      events.responseEnd?.({ text, toolCalls: 0 });
      return { text, calls: [], aborted: true };
    }
    const complete = calls.filter(Boolean).map((c, i) => ({
      ...c,
      id: c.id || `call_navi_${Date.now()}_${i}`,
    }));
    session.addMessage({
      role: "assistant",
      content: text || null,
      ...(complete.length
        ? {
          tool_calls: complete.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          })),
        }
        : {}),
    });
    events.responseEnd?.({ text, toolCalls: complete.length });
    return { text, calls: complete, aborted: false };
  }

  async #runCalls(calls: ToolCall[], opts: { signal: AbortSignal; turn: TurnResult }): Promise<void> {
    const { signal, turn } = opts;
    const results: ToolResult[] = new Array(calls.length);
    let i = 0;
    while (i < calls.length) {
      let j = i + 1;
      if (this.#safe(calls[i])) { while (j < calls.length && this.#safe(calls[j])) j++; }
      await Promise.all(
        calls.slice(i, j).map(async (call, k) => (results[i + k] = await this.#runOne(call, signal))),
      );
      i = j;
    }
    const images: Message[] = [];
    calls.forEach((call, n) => {
      const r = results[n];
      turn.toolCalls.push({ name: call.name, ok: r.ok });
      const content = toModelContent(r);
      this.#o.session.addMessage({
        role: "tool",
        tool_call_id: call.id,
        content: this.#o.redact?.(content) ?? content,
      });
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
    for (const m of images) this.#o.session.addMessage(m);
  }

  #safe(call: ToolCall): boolean {
    return this.#o.registry.get(call.name)?.concurrencySafe === true;
  }

  async #runOne(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const { registry, policy, session, events = {} } = this.#o;
    events.toolStart?.(call);
    let started = performance.now();
    const offered = this.#lastTools?.some((t) => t.function.name === call.name) ?? false;
    const tool = offered ? registry.get(call.name) : undefined;
    let decision = "none";
    let result: ToolResult;
    if (!call.name) {
      result = { ok: false, error: "The tool call has no function name" };
    } else if (!tool) {
      result = { ok: false, error: `Unknown tool: ${call.name}` };
    } else if (signal.aborted) {
      result = { ok: false, error: "Aborted by the user" };
    } else {
      const args = parseObject(call.arguments);
      const verdict = args
        ? await policy.decide({ tool: call.name, approval: tool.approval, args })
        : { allowed: true, how: "invalid" };
      decision = verdict.how;
      started = performance.now();
      result = verdict.allowed
        ? await registry.invoke(call.name, call.arguments, this.#context(call.name, signal))
        : { ok: false, error: (verdict as { error?: string }).error ?? "Not approved" };
    }
    const ms = Math.round(performance.now() - started);
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

  #context(tool: string, signal: AbortSignal): ToolContext {
    const { policy, events } = this.#o;
    return {
      workspace: this.#o.workspace,
      signal,
      confirm: (req) => policy.confirm(tool, req.detail),
      onOutput: events?.toolOutput ? (c) => events.toolOutput!(c) : undefined,
      childEnv: this.#o.childEnv,
    };
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
