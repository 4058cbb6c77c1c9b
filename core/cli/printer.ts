// How the REPL prints a turn: streamed text and reasoning, tool calls and their results, subagents' lines,
// compaction and error lines, all through the output sink. Over 300 lines because the renderer is one object
// that owns the screen's state during a turn.
import {
  type AgentEvents,
  ApiError,
  type CompactionInfo,
  ContextLimitError,
  ProviderError,
  SessionError,
  type SubagentEnd,
  type SubagentInfo,
  summarize,
  type ToolCall,
  type ToolPreview,
  type ToolProgress,
  type ToolResult,
} from "../mod.ts";
import { diffView } from "./diff_view.ts";
import { escapeControls, type Sink } from "../output/mod.ts";
import { makeStyle, shorten, type Style } from "./style.ts";
import { StatusLine } from "./status_line.ts";
import { type ReasoningDisplay, ReasoningView } from "./reasoning_view.ts";
import { wrapLine } from "./wrap.ts";
import { SubagentView } from "./subagent_view.ts";

function argsSummary(call: ToolCall): string {
  try {
    const args = JSON.parse(call.arguments || "{}");
    if (args && typeof args === "object" && !Array.isArray(args)) return summarize(args, 100);
  } catch { /* shown as sent */ }
  return shorten(call.arguments, 100);
}

/** One line saying what a tool returned: its short fields, the size of long ones. */
export function resultSummary(result: ToolResult, opts: { streamed?: boolean } = {}): string {
  if (!result.ok) return escapeControls(`error: ${shorten(result.error, 160)}`);
  const bits: string[] = [];
  let said: string | undefined;
  for (const [key, value] of Object.entries(result)) {
    if (key === "ok" || key.startsWith("_") || (key === "output" && opts.streamed)) continue;
    if (typeof value === "number" || typeof value === "boolean") bits.push(`${key} ${value}`);
    else if (Array.isArray(value)) bits.push(`${key} ${value.length}`);
    else if (typeof value === "string") {
      const lines = value.split("\n").length - (value.endsWith("\n") ? 1 : 0);
      if (lines <= 1 && value.length <= 80) {
        if (["output", "result", "text"].includes(key) && !said) said = value.trim();
        else bits.push(`${key} ${value.trim()}`);
      } else bits.push(lines > 1 ? `${key} ${lines} lines` : `${key} ${value.length} chars`);
    }
  }
  const line = `ok${said ? `: ${said}` : ""}${bits.length ? ` (${bits.slice(0, 5).join(", ")})` : ""}`;
  return escapeControls(shorten(line, 160));
}

function printableTitle(title: string): string {
  return title.startsWith("create ") ? title : `changes ${title}`;
}

/** Milliseconds as `850 ms` or `1.2 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Options of a terminal printer. */
export interface PrinterOptions {
  /** Assistant text: live for the REPL; in print mode only the final answer goes to `out`, by the caller. */
  mode: "repl" | "print";
  out: Sink;
  err: Sink;
  style?: Style;
  /** A live status line (spinner, elapsed time, progress): only on a terminal. */
  spinner?: boolean;
  /** The terminal's width: call and result lines wrap at words under it (hanging indents). */
  columns?: () => number;
  /** A renderer for each answer (markdown on a colour terminal in the REPL); undefined: raw text. */
  markdown?: (write: (text: string) => void) => StreamRenderer | undefined;
  /** More for the status line while it shows (e.g. how many background shells run). */
  statusExtra?: () => string | undefined;
}

/** Renders one streamed answer (see MarkdownStream). */
export interface StreamRenderer {
  push(delta: string): void;
  end(): void;
  /** Whether the cursor is in the middle of a line. */
  readonly midLine: boolean;
}

interface Running {
  call: ToolCall;
  started: number;
  grouped: boolean;
  streamed: boolean;
  progress?: ToolProgress;
  /** When a progress line was last printed (without a status line). */
  shownAt?: number;
}

/** Renders agent events for a terminal (see {@link terminalEvents}). */
class TerminalPrinter {
  #opts: PrinterOptions;
  #style: Style;
  #activity: Sink;
  #status: StatusLine;
  #atLineStart = true;
  #pending = "";
  #thinkingSince: number | undefined;
  #md: StreamRenderer | undefined;
  #open: string | undefined;
  #running = new Map<string, Running>();
  #starting: Running[] = [];
  #reasoning: ReasoningView;
  #subagents: SubagentView;

  constructor(opts: PrinterOptions) {
    this.#opts = opts;
    this.#style = opts.style ?? makeStyle(false);
    this.#subagents = new SubagentView(this.#style);
    this.#reasoning = new ReasoningView(this.#style);
    this.#activity = opts.mode === "repl" ? opts.out : opts.err;
    this.#status = new StatusLine({
      out: this.#activity,
      style: this.#style,
      enabled: opts.spinner === true,
      text: () => this.#statusText(),
      atLineStart: () => this.#atLineStart,
      hint: opts.mode === "repl" ? "Esc to interrupt" : undefined,
    });
  }

  write(text: string): void {
    this.#status.clear();
    this.#activity.write(text);
    if (text) this.#atLineStart = text.endsWith("\n");
  }

  #ensureNewline(): void {
    if (!this.#atLineStart) this.write("\n");
  }

  #statusText(): string | undefined {
    const text = this.#activityText() ?? (this.#subagents.size ? "subagents running" : undefined);
    const extra = text && this.#opts.statusExtra?.();
    const line = extra ? `${text} · ${extra}` : text;
    if (!line || !this.#subagents.size) return line;
    const width = Math.min(100, (this.#opts.columns?.() ?? 101) - 1);
    return [line, ...this.#subagents.lines(width)].join("\n");
  }

  subagentStart(info: SubagentInfo): void {
    const line = this.#subagents.start(info);
    if (this.#opts.mode === "print") this.#under(line);
    this.#status.start();
  }

  subagentTool(info: SubagentInfo, tool: string): void {
    const line = this.#subagents.tool(info, tool);
    if (this.#opts.mode === "print") this.#under(line);
  }

  subagentEnd(info: SubagentInfo, end: SubagentEnd): void {
    this.#under(this.#subagents.end(info, end));
    this.#settle();
  }

  /** A subagent's line, under its task call (the call's result still goes right below). */
  #under(line: string): void {
    const r = [...this.#running.values()].find((x) => this.#starting.includes(x));
    if (r) this.#flushStarting();
    this.#ensureNewline();
    this.write(line + "\n");
  }

  #activityText(): string | undefined {
    const now = Date.now();
    if (this.#thinkingSince !== undefined) {
      const s = Math.floor((now - this.#thinkingSince) / 1000);
      return `thinking${s >= 1 ? ` ${s}s` : ""}`;
    }
    const slow = [...this.#running.values()].filter((r) => now - r.started >= 1000 || r.progress);
    if (!slow.length) return undefined;
    const r = slow[0];
    const s = Math.floor((now - r.started) / 1000);
    const p = r.progress;
    const progress = p
      ? ` ${p.progress}${p.total ? `/${p.total}` : ""}${p.message ? ` ${p.message}` : ""}`
      : "";
    const more = slow.length > 1 ? ` (+${slow.length - 1} more)` : "";
    return shorten(`${r.call.name}${progress} · ${s}s${more}`, 100);
  }

  #settle(): void {
    if (this.#thinkingSince === undefined && !this.#running.size && !this.#subagents.size) {
      this.#status.stop();
    }
  }

  #callLine(call: ToolCall): string {
    const style = this.#style;
    const args = escapeControls(argsSummary(call));
    const line = `${style.bold(escapeControls(call.name))}${args ? ` ${style.dim(args)}` : ""}`;
    return this.#wrap(line, `${style.cyan("●")} `, "  ") + "\n";
  }

  /** `text` wrapped at words to the terminal's width (when known), `first` before it, `rest` under it. */
  #wrap(text: string, first: string, rest: string): string {
    const columns = this.#opts.columns?.();
    return columns ? wrapLine(text, { columns, first, rest }) : first + text;
  }

  /** A block of navi's own lines (already escaped and styled), on lines of its own. */
  block(text: string): void {
    this.#ensureNewline();
    this.#open = undefined;
    this.write(text.endsWith("\n") ? text : text + "\n");
  }

  notice(text: string): void {
    this.#ensureNewline();
    this.#open = undefined;
    this.write(this.#wrap(this.#style.yellow(`navi: ${escapeControls(text)}`), "", "  ") + "\n");
  }

  #flushStarting(): void {
    const group = this.#starting;
    this.#starting = [];
    if (group.length === 1 && this.#running.has(group[0].call.id)) {
      this.#ensureNewline();
      this.write(this.#callLine(group[0].call));
      this.#open = group[0].call.id;
    } else for (const r of group) r.grouped = true;
  }

  stopSpinner(): void {
    this.#status.held = true;
    this.#status.clear();
  }

  resumeSpinner(): void {
    this.#status.held = false;
    for (const r of this.#running.values()) r.started = Date.now();
  }

  requestStart(): void {
    this.#pending = "";
    this.#thinkingSince = Date.now();
    this.#md = this.#opts.mode === "repl" ? this.#opts.markdown?.((t) => this.write(t)) : undefined;
    this.#status.start();
  }

  get reasoningDisplay(): ReasoningDisplay {
    return this.#reasoning.display;
  }

  reasoning(delta: string): void {
    if (this.#opts.mode !== "repl") return;
    const text = this.#reasoning.piece(delta);
    if (!text) return;
    this.#thinkingSince = undefined;
    this.#settle();
    this.#open = undefined;
    this.write(text);
  }

  #endReasoning(): void {
    if (!this.#reasoning.open) return;
    const line = this.#reasoning.end();
    this.#ensureNewline();
    this.write(line);
  }

  text(delta: string): void {
    this.#endReasoning();
    this.#thinkingSince = undefined;
    this.#settle();
    if (this.#opts.mode !== "repl") return void (this.#pending += delta);
    this.#open = undefined;
    if (this.#md) {
      this.#status.clear();
      this.#md.push(delta);
      this.#atLineStart = !this.#md.midLine;
    } else this.write(escapeControls(delta));
  }

  responseEnd(toolCalls: number): void {
    const { mode, err, out } = this.#opts;
    this.#endReasoning();
    this.#thinkingSince = undefined;
    this.#settle();
    if (this.#md) {
      this.#md.end();
      this.#atLineStart = true;
    }
    if (mode === "print" && toolCalls > 0 && this.#pending.trim()) {
      err.write(this.#style.dim(escapeControls(this.#pending.trimEnd())) + "\n");
    }
    if (mode === "repl") this.#ensureNewline();
    out.flush?.();
    err.flush?.();
  }

  toolStart(call: ToolCall): void {
    this.#endReasoning();
    const r: Running = { call, started: Date.now(), grouped: false, streamed: false };
    this.#running.set(call.id, r);
    this.#starting.push(r);
    if (this.#starting.length === 1) queueMicrotask(() => this.#flushStarting());
    this.#status.start();
  }

  toolOutput(chunk: string): void {
    for (const r of this.#running.values()) r.streamed = true;
    this.write(this.#style.dim(escapeControls(chunk)));
  }

  toolProgress(call: ToolCall, progress: ToolProgress): void {
    const r = this.#running.get(call.id);
    if (!r) return;
    r.progress = progress;
    // Without a live status line (not a terminal: -p into a log) progress is a line, at most one a second.
    if (this.#opts.spinner || (r.shownAt !== undefined && Date.now() - r.shownAt < 1000)) return;
    r.shownAt = Date.now();
    if (this.#starting.includes(r)) this.#flushStarting();
    this.#ensureNewline();
    const p = `${progress.progress}${progress.total ? `/${progress.total}` : ""}`;
    const what = escapeControls(`${p}${progress.message ? ` ${progress.message}` : ""}`);
    this.write(this.#style.dim(`  … ${shorten(what, 120)}`) + "\n");
  }

  /** An edit that runs without a question still shows what it changes, folded to a few lines. */
  toolPreview(call: ToolCall, preview: ToolPreview): void {
    if (this.#opts.mode !== "repl") return;
    const r = this.#running.get(call.id);
    if (r && this.#starting.includes(r)) this.#flushStarting();
    this.#ensureNewline();
    if (this.#open !== call.id) this.write(this.#callLine(call));
    this.#open = call.id;
    const style = this.#style;
    const view = diffView(preview, { style, firstLines: 8 });
    const rows = view.lines.slice(0, 12).map((l) => `  ${style.dim("│")} ${l}`);
    if (view.lines.length > 12) rows.push(style.dim(`  … ${view.lines.length - 12} more lines`));
    this.write([style.dim(`  ${printableTitle(view.title)}`), ...rows].join("\n") + "\n");
  }

  toolEnd(call: ToolCall, outcome: { result: ToolResult; ms: number }): void {
    const { result, ms } = outcome;
    const r = this.#running.get(call.id);
    this.#running.delete(call.id);
    if (r && this.#starting.includes(r)) this.#flushStarting();
    this.#ensureNewline();
    if (this.#open !== call.id) this.write(this.#callLine(call));
    this.#open = undefined;
    const style = this.#style;
    const line = `${resultSummary(result, { streamed: r?.streamed })} ${style.dim(`(${formatMs(ms)})`)}`;
    this.write(this.#wrap(result.ok ? style.green(line) : style.red(line), "  ⎿ ", "    ") + "\n");
    this.#settle();
  }
}

/**
 * Agent events rendered for a terminal: a status line (thinking, tools running over a second, progress),
 * reasoning dimmed (or one summary line, `/reasoning off`), answers (markdown on a colour terminal), one line
 * per tool call with its result right below it (calls that run in parallel print as call + result pairs when
 * each ends).
 */
export function terminalEvents(
  opts: PrinterOptions,
): AgentEvents & {
  stopSpinner(): void;
  resumeSpinner(): void;
  block(text: string): void;
  reasoningDisplay: ReasoningDisplay;
} {
  const p = new TerminalPrinter(opts);
  return {
    /** Print navi's own lines (a checklist) between the activity lines. */
    block: (text) => p.block(text),
    /** How reasoning is shown (`/reasoning on|off`). */
    reasoningDisplay: p.reasoningDisplay,
    reasoning: (delta) => p.reasoning(delta),
    /** Clear the status line and keep it off (a question is on screen) until `resumeSpinner`. */
    stopSpinner: () => p.stopSpinner(),
    /** The question was answered: running tools count their time from now. */
    resumeSpinner: () => p.resumeSpinner(),
    requestStart: () => p.requestStart(),
    text: (delta) => p.text(delta),
    responseEnd: ({ toolCalls }) => p.responseEnd(toolCalls),
    toolStart: (call) => p.toolStart(call),
    toolOutput: (chunk) => p.toolOutput(chunk),
    toolProgress: (call, progress) => p.toolProgress(call, progress),
    toolPreview: (call, preview) => p.toolPreview(call, preview),
    toolEnd: (call, outcome) => p.toolEnd(call, outcome),
    notice: (text) => p.notice(text),
    subagentStart: (info) => p.subagentStart(info),
    subagentTool: (info, tool) => p.subagentTool(info, tool),
    subagentEnd: (info, end) => p.subagentEnd(info, end),
    retry: (info) => p.notice(info.message),
    compaction: (info) => p.notice(compactionLine(info)),
  };
}

/** The line for a compaction starting or done. */
export function compactionLine(info: CompactionInfo): string {
  const why = info.reason === "context-length"
    ? "the provider refused the conversation as too long"
    : info.reason === "auto"
    ? "the next request would not fit the model's window"
    : "/compact";
  return info.summary === undefined
    ? `compacting the conversation (about ${info.before} tokens; ${why})...`
    : `compacted the conversation: about ${info.before} -> ${info.after} tokens`;
}

/** The line for an error that ended a step: navi's own errors as they are, anything else as unexpected. */
export function errorLine(err: unknown): string {
  return escapeControls(
    err instanceof ApiError || err instanceof ProviderError || err instanceof SessionError ||
      err instanceof ContextLimitError
      ? err.message
      : `unexpected error: ${err instanceof Error ? err.message : String(err)}`,
  );
}
