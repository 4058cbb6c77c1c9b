import {
  type AgentEvents,
  RedactingStream,
  type Redactor,
  summarize,
  type ToolCall,
  type ToolResult,
} from "../mod.ts";
import { makeStyle, shorten, type Style } from "./style.ts";
import { escapeControls, terminalSafe } from "./terminal_text.ts";

/** Where text goes. */
export interface Sink {
  write(text: string): void;
  /** Pass on text held back (the possible beginning of a secret at the end of a streamed piece). */
  flush?(): void;
}

/**
 * A sink over a Deno stream for a terminal: secrets are redacted across pieces (the end of a piece that
 * could begin a secret waits for the next piece or `flush`), and control sequences other than navi's own
 * colours are shown escaped.
 */
export function streamSink(stream: { writeSync(p: Uint8Array): number }, secrets?: Redactor): Sink {
  const enc = new TextEncoder();
  const redacting = secrets ? new RedactingStream(secrets) : undefined;
  const emit = (text: string) => {
    const bytes = enc.encode(terminalSafe(text));
    let off = 0;
    try {
      while (off < bytes.length) off += stream.writeSync(bytes.subarray(off));
    } catch (err) {
      // A closed pipe or a terminal that hung up (EIO) has no reader left: the text has nowhere to go.
      if (!(err instanceof Deno.errors.BrokenPipe) && (err as { code?: string }).code !== "EIO") throw err;
    }
  };
  return {
    write: (text) => emit(redacting ? redacting.push(text) : text),
    flush: () => redacting && emit(redacting.flush()),
  };
}

function argsSummary(call: ToolCall): string {
  try {
    const args = JSON.parse(call.arguments || "{}");
    if (args && typeof args === "object" && !Array.isArray(args)) return summarize(args, 100);
  } catch { /* shown as sent */ }
  return shorten(call.arguments, 100);
}

function resultSummary(result: ToolResult): string {
  if (!result.ok) return `error: ${shorten(result.error, 160)}`;
  const bits = ["count", "path", "exit_code", "replacements", "bytes"].filter((k) => k in result)
    .map((k) => `${k} ${result[k]}`);
  if (result.truncated) bits.push("truncated");
  return bits.length ? `ok (${bits.join(", ")})` : "ok";
}

/** Options of a terminal printer. */
export interface PrinterOptions {
  /** Assistant text: live for the REPL; in print mode only the final answer goes to `out`, by the caller. */
  mode: "repl" | "print";
  out: Sink;
  err: Sink;
  style?: Style;
  spinner?: boolean;
}

/** Agent events rendered for a terminal: spinner until the first token, one line per tool call. */
export function terminalEvents(opts: PrinterOptions): AgentEvents & { stopSpinner(): void } {
  const style = opts.style ?? makeStyle(false);
  const activity = opts.mode === "repl" ? opts.out : opts.err;
  let spin: ReturnType<typeof setInterval> | undefined;
  let frame = 0;
  let atLineStart = true;
  let pending = "";
  let lastStarted: string | undefined;
  const stopSpinner = () => {
    if (spin === undefined) return;
    clearInterval(spin);
    spin = undefined;
    activity.write("\r\x1b[K");
  };
  const ensureNewline = () => {
    if (!atLineStart) activity.write("\n");
    atLineStart = true;
  };
  const notice = (text: string) => {
    stopSpinner();
    ensureNewline();
    activity.write(style.yellow(`navi: ${escapeControls(text)}`) + "\n");
  };
  return {
    stopSpinner,
    requestStart() {
      pending = "";
      if (!opts.spinner) return;
      const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
      spin = setInterval(
        () => activity.write(`\r${style.dim(frames[frame++ % frames.length] + " thinking")}`),
        80,
      );
    },
    text(delta) {
      stopSpinner();
      if (opts.mode === "repl") {
        opts.out.write(escapeControls(delta));
        atLineStart = delta.endsWith("\n");
      } else pending += delta;
    },
    responseEnd({ toolCalls }) {
      stopSpinner();
      if (opts.mode === "print" && toolCalls > 0 && pending.trim()) {
        opts.err.write(style.dim(escapeControls(pending.trimEnd())) + "\n");
      }
      if (opts.mode === "repl") ensureNewline();
      opts.out.flush?.();
      opts.err.flush?.();
    },
    toolStart(call) {
      stopSpinner();
      ensureNewline();
      const args = escapeControls(argsSummary(call));
      const name = escapeControls(call.name);
      activity.write(`${style.cyan("●")} ${style.bold(name)}${args ? ` ${style.dim(args)}` : ""}\n`);
      lastStarted = call.id;
    },
    toolOutput(chunk) {
      activity.write(style.dim(escapeControls(chunk)));
      atLineStart = chunk.endsWith("\n");
    },
    toolEnd(call, { result, ms }) {
      ensureNewline();
      const who = lastStarted === call.id ? "" : `${escapeControls(call.name)}: `;
      lastStarted = undefined;
      const line = `  ⎿ ${who}${escapeControls(resultSummary(result))} ${style.dim(`(${ms} ms)`)}`;
      activity.write((result.ok ? style.green(line) : style.red(line)) + "\n");
      activity.flush?.();
    },
    notice,
    retry: (info) => notice(info.message),
  };
}
