import {
  ApiError,
  type ApprovalMode,
  type NaviApp,
  openConversation,
  preloadSdk,
  ProviderError,
} from "../../mod.ts";
import { streamSink, terminalEvents } from "../render.ts";
import { makeStyle } from "../style.ts";
import { escapeControls } from "../terminal_text.ts";

/** Options of `navi -p`. */
export interface PrintOptions {
  outputFormat?: "text" | "json";
  provider?: string;
  model?: string;
  approval?: ApprovalMode;
  resume?: string;
  continue?: boolean;
}

async function readStdin(): Promise<string> {
  if (Deno.stdin.isTerminal()) return "";
  return await new Response(Deno.stdin.readable).text();
}

/** `navi -p "prompt"`: one turn; the answer on stdout, activity on stderr. Returns the exit status. */
export async function printCommand(app: NaviApp, prompt: string, opts: PrintOptions): Promise<number> {
  const piped = await readStdin();
  const full = piped.trim() ? `${prompt}\n\n${piped}` : prompt;
  const style = makeStyle(Deno.stderr.isTerminal());
  const out = streamSink(Deno.stdout, app.secrets);
  const err = streamSink(Deno.stderr, app.secrets);
  const events = terminalEvents({ mode: "print", out, err, style });
  preloadSdk();
  await app.startMcp();
  const convo = openConversation(app, { ...opts, events });
  for (const w of convo.warnings) err.write(`navi: warning: ${w}\n`);
  for (const s of app.mcpStates()) {
    if (s.error) err.write(`navi: warning: MCP server ${s.name} ${s.status}: ${s.error}\n`);
  }
  if (convo.policy.mode === "auto" && Deno.stderr.isTerminal()) {
    err.write(style.yellow("navi: warning: approval mode auto runs every tool without asking") + "\n");
  }
  const sandboxWarning = Deno.stderr.isTerminal() ? await app.sandbox.warning() : undefined;
  if (sandboxWarning) err.write(style.yellow(`navi: ${sandboxWarning}`) + "\n");
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSigint);
  try {
    const result = await convo.agent.run(full, controller.signal);
    if (opts.outputFormat === "json") {
      out.write(
        JSON.stringify({
          result: result.text,
          tool_calls: result.toolCalls,
          usage: result.usage,
          session_id: convo.agent.session.meta.id,
          ...(result.aborted ? { aborted: true } : {}),
          ...(result.stoppedAtLimit ? { stopped_at_limit: true } : {}),
        }) + "\n",
      );
    } else if (result.text) {
      out.write(escapeControls(result.text.endsWith("\n") ? result.text : result.text + "\n"));
    }
    return result.aborted ? 130 : 0;
  } catch (e) {
    if (e instanceof ApiError || e instanceof ProviderError) {
      err.write(`navi: ${e.message}\n`);
      if (opts.outputFormat === "json") {
        out.write(JSON.stringify({ error: e.message, session_id: convo.agent.session.meta.id }) + "\n");
      }
      return 1;
    }
    throw e;
  } finally {
    Deno.removeSignalListener("SIGINT", onSigint);
  }
}
