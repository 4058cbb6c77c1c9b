// navi's agent events as stream-json lines: Claude Code's `system`/`assistant`/`user`/`result` shapes (and
// `stream_event` with partial messages), navi's own additions as `navi_*` types. docs/stream-json.schema.json
// describes every line; tests validate what this writes against it.
import type { AgentEvents, ResponseInfo, SubagentInfo } from "../agent/mod.ts";
import type { Decision } from "../approval/mod.ts";
import type { CompactionInfo } from "../context/mod.ts";
import { RedactingStream, type Redactor } from "../output/mod.ts";
import { costOf, emptyUsage, type ModelPrice, type ToolCall, type Usage } from "../provider/mod.ts";
import type { ToolProgress, ToolResult } from "../tool/mod.ts";

/** The version of the stream's shapes, in the `init` line; it changes only when a field changes meaning. */
export const STREAM_JSON_VERSION = 1;

/** One line of the stream, before it is written. */
export type StreamLine = Record<string, unknown> & { type: string };

// C1 controls, DEL and the line separators: what JSON.stringify leaves raw.
const RAW_CONTROLS = /[\x7f-\x9f\u2028\u2029]/g;

/** One JSON line: like JSON.stringify, with DEL, C1 controls and line separators escaped too (`\u009b`). */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    RAW_CONTROLS,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  ) +
    "\n";
}

/** Claude's usage object from navi's: input tokens exclude cached ones, which are `cache_read_input_tokens`. */
export function claudeUsage(u: Usage): Record<string, number> {
  const cached = Math.min(u.cached_tokens, u.prompt_tokens);
  return {
    input_tokens: u.prompt_tokens - cached,
    output_tokens: u.completion_tokens,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}

/** A tool call's arguments as an object (`{}` for none); arguments that are not a JSON object as `{_raw}`. */
export function toolInput(call: ToolCall): Record<string, unknown> {
  if (!call.arguments.trim()) return {};
  try {
    const value = JSON.parse(call.arguments);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch { /* kept raw */ }
  return { _raw: call.arguments };
}

/** What the writer needs from the run. */
export interface StreamJsonOptions {
  /** Writes one line (the caller's sink redacts secrets and flushes). */
  write(line: string): void;
  /** The session the lines belong to. */
  sessionId(): string;
  /** The model requests go to (for `assistant.message.model` and prices). */
  model(): string | undefined;
  /** Emit `stream_event` lines (text deltas) and `navi_tool_output` / `navi_tool_progress`. */
  partial?: boolean;
  /** Redacts streamed text pieces (a secret split over two deltas is still caught). */
  secrets: Redactor;
  /** Prices per model, for `total_cost_usd`. */
  prices?: Record<string, ModelPrice>;
  /** The session's cache hit ratio so far (for `navi_cache`). */
  hitRatio?(): number | null;
  /** Milliseconds since some fixed point (an injected clock in tests); default `performance.now`. */
  now?(): number;
}

/** The run so far, as `result` reports it (cumulative over the run, as the Agent SDK's result is). */
interface Totals {
  turns: number;
  apiMs: number;
  usage: Usage;
  cost: number | null;
  denials: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
}

/**
 * Turns agent events into stream-json lines. One writer serves one run (several user messages with
 * `--input-format stream-json`); `result` totals are cumulative over the run.
 */
export class StreamJsonWriter {
  #o: StreamJsonOptions;
  #started: number;
  #requestAt = 0;
  #messageId = "";
  #textOpen = false;
  #text?: RedactingStream;
  #output = new Map<string, RedactingStream>();
  #totals: Totals = { turns: 0, apiMs: 0, usage: emptyUsage(), cost: 0, denials: [] };

  /** Write through `opts.write`; the run's clock starts now. */
  constructor(opts: StreamJsonOptions) {
    this.#o = opts;
    this.#started = this.#now();
  }

  /** The agent events to pass to the conversation. */
  get events(): AgentEvents {
    return {
      requestStart: () => this.#requestStart(),
      text: (delta) => this.#delta(delta),
      responseEnd: (info) => this.#responseEnd(info),
      toolDecision: (call, d) => this.#decision(call, d),
      toolOutput: (chunk, call) => this.#toolOutput(chunk, call),
      toolProgress: (call, p) => this.#progress(call, p),
      toolEnd: (call, outcome) => this.#toolEnd(call, outcome),
      notice: (text) => this.emit({ type: "navi_notice", text }),
      plan: (items) => this.emit({ type: "navi_plan", items: items.map((i) => ({ ...i })) }),
      subagentStart: (info) => this.emit({ type: "navi_subagent", event: "start", ...subagentFields(info) }),
      subagentEnd: (info, end) =>
        this.emit({
          type: "navi_subagent",
          event: "end",
          ...subagentFields(info),
          ok: end.ok,
          ...(end.error ? { error: end.error } : {}),
          duration_ms: end.ms,
          usage: {
            input_tokens: end.usage.prompt_tokens,
            cache_read_input_tokens: end.usage.cached_tokens,
            output_tokens: end.usage.completion_tokens,
          },
        }),
      retry: (info) =>
        this.emit({
          type: "navi_retry",
          attempt: info.attempt,
          of: info.of,
          wait_ms: info.waitMs,
          ...(info.status !== undefined ? { status: info.status } : {}),
          message: info.message,
        }),
      compaction: (info) => this.#compaction(info),
    };
  }

  /** Write one line of `type` with the common fields (`session_id`, `uuid`) added. */
  emit(line: StreamLine): void {
    this.#o.write(jsonLine({ ...line, session_id: this.#o.sessionId(), uuid: crypto.randomUUID() }));
  }

  /** The `result` line that ends the answer to one user message. */
  result(outcome: { text: string; error?: string; stoppedAtLimit?: boolean; aborted?: boolean }): void {
    const t = this.#totals;
    const failed = outcome.error !== undefined || outcome.aborted === true;
    const subtype = outcome.stoppedAtLimit
      ? "error_max_turns"
      : failed
      ? "error_during_execution"
      : "success";
    this.emit({
      type: "result",
      subtype,
      is_error: subtype !== "success",
      duration_ms: Math.round(this.#now() - this.#started),
      duration_api_ms: Math.round(t.apiMs),
      num_turns: t.turns,
      result: outcome.text,
      total_cost_usd: t.cost === null ? null : Number(t.cost.toFixed(6)),
      usage: claudeUsage(t.usage),
      permission_denials: t.denials,
      ...(outcome.error !== undefined ? { errors: [outcome.error] } : {}),
      ...(outcome.aborted ? { errors: ["aborted by a signal"] } : {}),
    });
  }

  #now(): number {
    return this.#o.now?.() ?? performance.now();
  }

  #requestStart(): void {
    this.#requestAt = this.#now();
    this.#totals.turns++;
    this.#messageId = `msg_navi_${crypto.randomUUID().replaceAll("-", "")}`;
    this.#textOpen = false;
    this.#text = new RedactingStream(this.#o.secrets);
    if (!this.#o.partial) return;
    this.#event({
      type: "message_start",
      message: {
        id: this.#messageId,
        type: "message",
        role: "assistant",
        model: this.#o.model() ?? "",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: claudeUsage(emptyUsage()),
      },
    });
  }

  #event(event: Record<string, unknown>): void {
    this.emit({ type: "stream_event", event, parent_tool_use_id: null });
  }

  #delta(delta: string): void {
    if (!this.#o.partial) return;
    if (!this.#textOpen) {
      this.#textOpen = true;
      this.#event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    }
    const text = this.#text?.push(delta) ?? delta;
    if (text) this.#event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
  }

  #responseEnd(info: ResponseInfo): void {
    const usage = info.usage ?? emptyUsage();
    const calls = info.calls ?? [];
    this.#totals.apiMs += this.#now() - this.#requestAt;
    for (const k of Object.keys(usage) as (keyof Usage)[]) this.#totals.usage[k] += usage[k];
    const cost = costOf(usage, this.#o.prices?.[this.#o.model() ?? ""]);
    this.#totals.cost = cost === undefined || this.#totals.cost === null ? null : this.#totals.cost + cost;
    const stop = info.cut ? null : calls.length ? "tool_use" : "end_turn";
    if (this.#o.partial) this.#endPartial(stop, usage);
    const content = [
      ...(info.text ? [{ type: "text", text: info.text }] : []),
      ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: toolInput(c) })),
    ];
    if (content.length) {
      this.emit({
        type: "assistant",
        message: {
          id: this.#messageId,
          type: "message",
          role: "assistant",
          model: this.#o.model() ?? "",
          content,
          stop_reason: stop,
          stop_sequence: null,
          usage: claudeUsage(usage),
        },
        parent_tool_use_id: null,
      });
    }
    this.emit({
      type: "navi_cache",
      prompt_tokens: usage.prompt_tokens,
      cached_tokens: usage.cached_tokens,
      hit_ratio: this.#o.hitRatio?.() ?? null,
      ...(info.cacheBreak ? { break: info.cacheBreak } : {}),
    });
  }

  #endPartial(stop: string | null, usage: Usage): void {
    const rest = this.#text?.flush() ?? "";
    if (rest) {
      this.#event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: rest } });
    }
    if (this.#textOpen) this.#event({ type: "content_block_stop", index: 0 });
    this.#textOpen = false;
    this.#event({
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.completion_tokens },
    });
    this.#event({ type: "message_stop" });
  }

  #decision(call: ToolCall, d: Decision): void {
    if (d.how === "read_only") return;
    if (!d.allowed && d.how !== "invalid") {
      this.#totals.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: toolInput(call) });
    }
    this.emit({
      type: "navi_approval",
      tool_use_id: call.id,
      tool_name: call.name,
      allowed: d.allowed,
      how: d.how,
      ...(d.error ? { reason: d.error } : {}),
    });
  }

  #toolOutput(chunk: string, call?: ToolCall): void {
    if (!this.#o.partial || !call) return;
    let stream = this.#output.get(call.id);
    if (!stream) this.#output.set(call.id, stream = new RedactingStream(this.#o.secrets));
    const text = stream.push(chunk);
    if (text) this.emit({ type: "navi_tool_output", tool_use_id: call.id, text });
  }

  #progress(call: ToolCall, p: ToolProgress): void {
    if (!this.#o.partial) return;
    this.emit({
      type: "navi_tool_progress",
      tool_use_id: call.id,
      progress: p.progress,
      ...(p.total !== undefined ? { total: p.total } : {}),
      ...(p.message ? { message: p.message } : {}),
    });
  }

  #toolEnd(call: ToolCall, outcome: { result: ToolResult; content?: string }): void {
    const rest = this.#output.get(call.id)?.flush();
    this.#output.delete(call.id);
    if (rest) this.emit({ type: "navi_tool_output", tool_use_id: call.id, text: rest });
    this.emit({
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: call.id,
          content: outcome.content ?? JSON.stringify(outcome.result),
          is_error: !outcome.result.ok,
        }],
      },
      parent_tool_use_id: null,
    });
  }

  #compaction(info: CompactionInfo): void {
    if (info.summary === undefined) return;
    this.emit({
      type: "system",
      subtype: "compact_boundary",
      compact_metadata: { trigger: info.reason === "manual" ? "manual" : "auto", pre_tokens: info.before },
    });
  }
}

/** The fields every `navi_subagent` line has. */
function subagentFields(info: SubagentInfo) {
  return {
    n: info.n,
    agent: info.agent,
    description: info.description,
    depth: info.depth,
    ...(info.callId ? { tool_use_id: info.callId } : {}),
  };
}
