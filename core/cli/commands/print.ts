import {
  ApiError,
  type ApprovalMode,
  ContextLimitError,
  type Conversation,
  costOf,
  expandMentions,
  expandSlash,
  type ModelPrice,
  type NaviApp,
  preloadSdk,
  ProviderError,
  type ReasoningEffort,
  startConversation,
  type Usage,
} from "../../mod.ts";
import { escapeControls, streamSink } from "../../output/mod.ts";
import { terminalEvents } from "../printer.ts";
import { todoChecklist, withPlanChecklist } from "./todo.ts";
import { firstRunHelp } from "../first_run.ts";
import { SignalTrap } from "../signals.ts";
import { makeStyle } from "../style.ts";
import { subagentUsage, usageJson } from "./usage.ts";

/** Options of `navi -p`. */
export interface PrintOptions {
  outputFormat?: "text" | "json";
  provider?: string;
  model?: string;
  effort?: ReasoningEffort;
  approval?: ApprovalMode;
  resume?: string;
  continue?: boolean;
  /** Fork the resumed session instead (`--fork-session [turn]`). */
  fork?: boolean | number;
}

async function readStdin(): Promise<string> {
  if (Deno.stdin.isTerminal()) return "";
  return await new Response(Deno.stdin.readable).text();
}

/** Resolves when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * `navi -p "prompt"`: one turn; the answer on stdout, activity on stderr. Returns the exit status: 0, 1 on
 * an API error or an incomplete response, 130/143/129 when SIGINT/SIGTERM/SIGHUP stopped it (the turn is
 * aborted, the session keeps what arrived marked as interrupted, and no partial answer is printed).
 */
export async function printCommand(app: NaviApp, prompt: string, opts: PrintOptions): Promise<number> {
  using trap = new SignalTrap(["SIGINT", "SIGTERM", "SIGHUP"]);
  const style = makeStyle(Deno.stderr.isTerminal());
  const out = streamSink(Deno.stdout, app.secrets);
  const err = streamSink(Deno.stderr, app.secrets);
  const stopped = () => {
    err.write(trap.describe() + "\n");
    return trap.status!;
  };
  const piped = await Promise.race([readStdin(), aborted(trap.signal).then(() => "")]);
  if (trap.received) return stopped();
  if (!prompt.trim() && !piped.trim()) {
    err.write('navi: -p needs a prompt: an argument (navi -p "...") or piped stdin\n');
    return 1;
  }
  const printer = terminalEvents({ mode: "print", out, err, style });
  const events = withPlanChecklist(printer, (items) => todoChecklist(items, { style }));
  app.plugins.subscribe((e) => err.write(`navi: ${escapeControls(e.message)}\n`));
  preloadSdk();
  const convo = await startConversation(app, {
    ...opts,
    events,
    mcp: "await",
    terminal: Deno.stderr.isTerminal(),
    report: (line) => {
      const text = `navi: ${line.kind === "warning" ? "warning: " : ""}${escapeControls(line.text)}`;
      err.write((line.kind === "warning" ? style.yellow(text) : text) + "\n");
    },
  });
  if (trap.received) return stopped();
  const slash = prompt.startsWith("/")
    ? await expandSlash(app, convo, prompt, { signal: trap.signal })
    : undefined;
  for (const note of slash?.notes ?? []) err.write(style.yellow(`navi: ${note}`) + "\n");
  if (slash?.model) convo.llm.overrides.model = slash.model;
  const text = slash?.text ?? prompt;
  const full = piped.trim() ? (text ? `${text}\n\n${piped}` : piped) : text;
  const expanded = await expandMentions(full, app.mentions);
  for (const p of expanded.problems) err.write(style.yellow(`navi: warning: ${escapeControls(p)}`) + "\n");
  if (expanded.attached.length) err.write(style.dim(`attached @${expanded.attached.join(", @")}`) + "\n");
  if (trap.received) return stopped();
  try {
    const result = await convo.agent.run(expanded.text, trap.signal);
    if (opts.outputFormat === "json") {
      const cache = convo.agent.cache.summary();
      out.write(
        JSON.stringify({
          result: result.text,
          tool_calls: result.toolCalls,
          usage: result.usage,
          ...turnCost(result.usage, { convo, prices: app.config.prices }),
          session_usage: usageJson(convo.agent.session.usage, app.config.prices),
          subagent_usage: subagentUsage(convo.agent.session.subagents),
          session_id: convo.agent.session.meta.id,
          cache_hit_ratio: cache.hit_ratio,
          cache_breaks: cache.breaks,
          ...(result.aborted ? { aborted: true } : {}),
          ...(result.stoppedAtLimit ? { stopped_at_limit: true } : {}),
        }) + "\n",
      );
    } else if (result.text && !result.aborted) {
      out.write(escapeControls(result.text.endsWith("\n") ? result.text : result.text + "\n"));
    }
    if (trap.received) return stopped();
    return result.aborted ? 130 : 0;
  } catch (e) {
    if (trap.received) return stopped();
    if (e instanceof ApiError || e instanceof ProviderError || e instanceof ContextLimitError) {
      const setup = e instanceof ProviderError && /^no (model|provider) configured/.test(e.message);
      err.write(setup ? firstRunHelp(app.home, e.message) + "\n" : `navi: ${escapeControls(e.message)}\n`);
      if (opts.outputFormat === "json") {
        out.write(JSON.stringify({ error: e.message, session_id: convo.agent.session.meta.id }) + "\n");
      }
      return 1;
    }
    throw e;
  }
}

function turnCost(usage: Usage, opts: { convo: Conversation; prices?: Record<string, ModelPrice> }) {
  let model = "";
  try {
    model = opts.convo.llm.current().model;
  } catch { /* no model, no price */ }
  const cost = costOf(usage, opts.prices?.[model]);
  return cost === undefined ? {} : { cost_usd: Number(cost.toFixed(6)) };
}
