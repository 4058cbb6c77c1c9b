import {
  ApiError,
  type Conversation,
  expandMentions,
  expandSlash,
  type NaviApp,
  preloadSdk,
  ProviderError,
  startConversation,
  type UserContent,
  VERSION,
} from "../../mod.ts";
import { type Sink, streamSink } from "../../output/mod.ts";
import {
  type InputMessage,
  lines,
  parseInputLine,
  STREAM_JSON_VERSION,
  StreamJsonWriter,
} from "../../streamjson/mod.ts";
import { SignalTrap } from "../signals.ts";
import type { PrintOptions } from "./print.ts";

/** Options of `navi -p --output-format stream-json`. */
export interface StreamJsonCommandOptions extends Omit<PrintOptions, "outputFormat"> {
  /** `stream-json`: user messages as JSON lines on stdin, each answered in turn. */
  inputFormat?: "text" | "stream-json";
  /** Text deltas as `stream_event` lines, live tool output as `navi_tool_output`. */
  includePartialMessages?: boolean;
}

/** Claude Code's name for each approval mode (its `permissionMode`). */
const PERMISSION_MODE = { ask: "default", plan: "plan", auto: "bypassPermissions" } as const;

/** One user message to answer, or an input line that was refused. */
type Input = { ok: true; text: string; content: UserContent } | { ok: false; line: number; error: string };

/** The messages to answer: the `-p` prompt (with piped stdin appended), or it and then stdin's JSON lines. */
async function* inputs(prompt: string, opts: StreamJsonCommandOptions): AsyncGenerator<Input> {
  if (opts.inputFormat !== "stream-json") {
    const piped = Deno.stdin.isTerminal() ? "" : await new Response(Deno.stdin.readable).text();
    const text = piped.trim() ? (prompt ? `${prompt}\n\n${piped}` : piped) : prompt;
    yield { ok: true, text, content: text };
    return;
  }
  if (prompt.trim()) yield { ok: true, text: prompt, content: prompt };
  let n = 0;
  for await (const line of lines(Deno.stdin.readable)) {
    n++;
    if (!line.trim()) continue;
    const m: InputMessage = parseInputLine(line);
    yield m.ok ? m : { ok: false, line: n, error: m.error };
  }
}

/** The next item of `it`, or undefined when `signal` aborts first. */
function next<T>(it: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T> | undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(undefined);
    signal.addEventListener("abort", () => resolve(undefined), { once: true });
    it.next().then(resolve, reject);
  });
}

/**
 * `navi -p --output-format stream-json`: one JSON line per event on stdout (`system`/`init` first, a `result`
 * after each answer), human lines on stderr. With `--input-format stream-json` every user message on stdin
 * is answered in turn in the one session. Exit status as `-p`: 0, 1 when an answer failed or an input line was
 * refused, 130/143/129 after a signal.
 */
export async function streamJsonCommand(
  app: NaviApp,
  prompt: string,
  opts: StreamJsonCommandOptions,
): Promise<number> {
  using trap = new SignalTrap(["SIGINT", "SIGTERM", "SIGHUP"]);
  const out = streamSink(Deno.stdout, app.secrets);
  const err = streamSink(Deno.stderr, app.secrets);
  const live: { convo?: Conversation } = {};
  const writer = new StreamJsonWriter({
    write: (line) => {
      out.write(line);
      out.flush?.();
    },
    sessionId: () => live.convo?.agent.session.meta.id ?? "",
    model: () => modelOf(live.convo),
    partial: opts.includePartialMessages,
    secrets: app.secrets,
    prices: app.config.prices,
    hitRatio: () => live.convo?.agent.cache.summary().hit_ratio ?? null,
  });
  app.plugins.subscribe((e) => err.write(`navi: ${e.message}\n`));
  preloadSdk();
  const convo = live.convo = await startConversation(app, {
    ...opts,
    events: writer.events,
    mcp: "await",
    terminal: false,
    report: (line) => err.write(`navi: ${line.kind === "warning" ? "warning: " : ""}${line.text}\n`),
  });
  writer.emit(initLine(app, convo));
  let status = 0;
  const it = inputs(prompt, opts)[Symbol.asyncIterator]();
  for (let r = await next(it, trap.signal); r && !r.done; r = await next(it, trap.signal)) {
    const input = r.value;
    if (!input.ok) {
      err.write(`navi: stdin line ${input.line}: ${input.error}; skipped\n`);
      writer.emit({ type: "navi_input_error", line: input.line, error: input.error });
      status = 1;
      continue;
    }
    if (!(await answer(convo, { input, writer, err, signal: trap.signal, app }))) {
      status = 1;
    }
    if (trap.received) break;
  }
  if (trap.received) {
    err.write(trap.describe() + "\n");
    return trap.status!;
  }
  return status;
}

/** Answer one user message: the turn, then its `result` line. Returns false when it failed. */
async function answer(
  convo: Conversation,
  run: {
    input: Input & { ok: true };
    writer: StreamJsonWriter;
    err: Sink;
    signal: AbortSignal;
    app: NaviApp;
  },
): Promise<boolean> {
  const { input, writer, err, signal } = run;
  const slash = typeof input.content === "string" && input.text.startsWith("/")
    ? await expandSlash(run.app, convo, input.text, { signal })
    : undefined;
  for (const note of slash?.notes ?? []) err.write(`navi: ${note}\n`);
  if (slash?.model) convo.llm.overrides.model = slash.model;
  const text = slash?.text ?? input.text;
  const expanded = await expandMentions(text, run.app.mentions);
  for (const p of expanded.problems) err.write(`navi: warning: ${p}\n`);
  const added = expanded.text.slice(text.length);
  const content: UserContent = typeof input.content === "string"
    ? expanded.text
    : added
    ? [...input.content, { type: "text", text: added.trimStart() }]
    : input.content;
  try {
    const result = await convo.agent.run(content, signal);
    writer.result({ text: result.text, stoppedAtLimit: result.stoppedAtLimit, aborted: result.aborted });
    return !result.aborted;
  } catch (e) {
    if (!(e instanceof ApiError || e instanceof ProviderError)) throw e;
    err.write(`navi: ${e.message}\n`);
    writer.result({ text: "", error: e.message });
    return false;
  }
}

function modelOf(convo: Conversation | undefined): string | undefined {
  try {
    return convo?.llm.current().model;
  } catch {
    return undefined;
  }
}

/** The `system`/`init` line: what the run works with. */
function initLine(app: NaviApp, convo: Conversation) {
  return {
    type: "system",
    subtype: "init",
    version: STREAM_JSON_VERSION,
    cwd: app.workspace,
    model: modelOf(convo) ?? null,
    tools: convo.agent.deferral.view().tools.map((t) => t.function.name),
    mcp_servers: app.mcp.states().map((s) => ({ name: s.name, status: s.status })),
    permissionMode: PERMISSION_MODE[convo.policy.mode],
    permission_mode: convo.policy.mode,
    navi_version: VERSION,
  };
}
