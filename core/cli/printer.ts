import {
  type AgentEvents,
  ApiError,
  type CompactionInfo,
  ProviderError,
  SessionError,
  summarize,
  type ToolCall,
  type ToolProgress,
  type ToolResult,
} from "../mod.ts";
import { escapeControls, type Sink } from "../output/mod.ts";
import { makeStyle, shorten, type Style } from "./style.ts";

function argsSummary(call: ToolCall): string {
  try {
    const args = JSON.parse(call.arguments || "{}");
    if (args && typeof args === "object" && !Array.isArray(args)) return summarize(args, 100);
  } catch { /* shown as sent */ }
  return shorten(call.arguments, 100);
}

/** One line saying what a tool returned: its short fields, the size of long ones. */
export function resultSummary(result: ToolResult, opts: { streamed?: boolean } = {}): string {
  if (!result.ok) return `error: ${shorten(result.error, 160)}`;
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
  return shorten(line, 160);
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
  /** A renderer for each answer (markdown on a colour terminal in the REPL); undefined: raw text. */
  markdown?: (write: (text: string) => void) => StreamRenderer | undefined;
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

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Agent events rendered for a terminal: a status line (thinking, tools running over a second, progress),
 * answers (markdown on a colour terminal), one line per tool call with its result right below it (calls that
 * run in parallel print as call + result pairs when each ends).
 */
export function terminalEvents(
  opts: PrinterOptions,
): AgentEvents & { stopSpinner(): void; resumeSpinner(): void } {
  const style = opts.style ?? makeStyle(false);
  const activity = opts.mode === "repl" ? opts.out : opts.err;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let frame = 0;
  let statusShown = false;
  let held = false;
  let atLineStart = true;
  let pending = "";
  let thinkingSince: number | undefined;
  let md: StreamRenderer | undefined;
  let open: string | undefined;
  const running = new Map<string, Running>();
  let starting: Running[] = [];

  const clearStatus = () => {
    if (!statusShown) return;
    statusShown = false;
    activity.write("\r\x1b[K");
  };
  const write = (text: string) => {
    clearStatus();
    activity.write(text);
    if (text) atLineStart = text.endsWith("\n");
  };
  const ensureNewline = () => {
    if (!atLineStart) write("\n");
  };
  const statusText = (): string | undefined => {
    const now = Date.now();
    if (thinkingSince !== undefined) {
      const s = Math.floor((now - thinkingSince) / 1000);
      return `thinking${s >= 1 ? ` ${s}s` : ""}`;
    }
    const slow = [...running.values()].filter((r) => now - r.started >= 1000 || r.progress);
    if (!slow.length) return undefined;
    const r = slow[0];
    const s = Math.floor((now - r.started) / 1000);
    const p = r.progress;
    const progress = p
      ? ` ${p.progress}${p.total ? `/${p.total}` : ""}${p.message ? ` ${p.message}` : ""}`
      : "";
    const more = slow.length > 1 ? ` (+${slow.length - 1} more)` : "";
    return shorten(`${r.call.name}${progress} · ${s}s${more}`, 100);
  };
  const tick = () => {
    if (held) return;
    const text = statusText();
    if (!text) return clearStatus();
    if (!atLineStart) return;
    activity.write(`\r\x1b[K${style.dim(`${FRAMES[frame++ % FRAMES.length]} ${text}`)}`);
    statusShown = true;
  };
  const startTicker = () => {
    if (opts.spinner && ticker === undefined) ticker = setInterval(tick, 100);
  };
  const stopTicker = () => {
    clearInterval(ticker);
    ticker = undefined;
    clearStatus();
  };
  const settle = () => {
    if (thinkingSince === undefined && !running.size) stopTicker();
  };
  const callLine = (call: ToolCall) => {
    const args = escapeControls(argsSummary(call));
    return `${style.cyan("●")} ${style.bold(escapeControls(call.name))}${
      args ? ` ${style.dim(args)}` : ""
    }\n`;
  };
  const notice = (text: string) => {
    ensureNewline();
    open = undefined;
    write(style.yellow(`navi: ${escapeControls(text)}`) + "\n");
  };
  const flushStarting = () => {
    const group = starting;
    starting = [];
    if (group.length === 1 && running.has(group[0].call.id)) {
      ensureNewline();
      write(callLine(group[0].call));
      open = group[0].call.id;
    } else for (const r of group) r.grouped = true;
  };

  return {
    /** Clear the status line and keep it off (a question is on screen) until `resumeSpinner`. */
    stopSpinner() {
      held = true;
      clearStatus();
    },
    /** The question was answered: running tools count their time from now. */
    resumeSpinner() {
      held = false;
      for (const r of running.values()) r.started = Date.now();
    },
    requestStart() {
      pending = "";
      thinkingSince = Date.now();
      md = opts.mode === "repl" ? opts.markdown?.(write) : undefined;
      startTicker();
    },
    text(delta) {
      thinkingSince = undefined;
      settle();
      if (opts.mode !== "repl") return void (pending += delta);
      open = undefined;
      if (md) {
        clearStatus();
        md.push(delta);
        atLineStart = !md.midLine;
      } else write(escapeControls(delta));
    },
    responseEnd({ toolCalls }) {
      thinkingSince = undefined;
      settle();
      md?.end();
      if (opts.mode === "print" && toolCalls > 0 && pending.trim()) {
        opts.err.write(style.dim(escapeControls(pending.trimEnd())) + "\n");
      }
      if (opts.mode === "repl") ensureNewline();
      opts.out.flush?.();
      opts.err.flush?.();
    },
    toolStart(call) {
      const r: Running = { call, started: Date.now(), grouped: false, streamed: false };
      running.set(call.id, r);
      starting.push(r);
      if (starting.length === 1) queueMicrotask(flushStarting);
      startTicker();
    },
    toolOutput(chunk) {
      for (const r of running.values()) r.streamed = true;
      write(style.dim(escapeControls(chunk)));
    },
    toolProgress(call, progress) {
      const r = running.get(call.id);
      if (!r) return;
      r.progress = progress;
      // Without a live status line (not a terminal: -p into a log) progress is a line, at most one a second.
      if (opts.spinner || (r.shownAt !== undefined && Date.now() - r.shownAt < 1000)) return;
      r.shownAt = Date.now();
      if (starting.includes(r)) flushStarting();
      ensureNewline();
      const p = `${progress.progress}${progress.total ? `/${progress.total}` : ""}`;
      const what = escapeControls(`${p}${progress.message ? ` ${progress.message}` : ""}`);
      write(style.dim(`  … ${shorten(what, 120)}`) + "\n");
    },
    toolEnd(call, { result, ms }) {
      const r = running.get(call.id);
      running.delete(call.id);
      if (starting.includes(r!)) flushStarting();
      ensureNewline();
      if (open !== call.id) write(callLine(call));
      open = undefined;
      const line = `  ⎿ ${resultSummary(result, { streamed: r?.streamed })} ${
        style.dim(`(${formatMs(ms)})`)
      }`;
      write((result.ok ? style.green(line) : style.red(line)) + "\n");
      settle();
    },
    notice,
    retry: (info) => notice(info.message),
    compaction: (info) => notice(compactionLine(info)),
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
  return err instanceof ApiError || err instanceof ProviderError || err instanceof SessionError
    ? err.message
    : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
}
