// One event's run: the matching hooks in parallel, each with the input in its own vocabulary; their verdicts
// combined, each run remembered and audited. Loaded on first use, so a navi without hooks never evaluates it.
import { combine, readDecision, readRun } from "./output.ts";
import { runCommandHook } from "./runner.ts";
import type {
  CommandHook,
  HookAudit,
  HookEvent,
  HookOutcome,
  HookSessionInfo,
  HookVerdict,
  PluginHook,
  ToolHookCall,
} from "./types.ts";
import { fromClaudeInput, hookToolName, toClaudeInput } from "./vocabulary.ts";

/** What runEvent works with. */
export interface EventContext {
  commands: readonly CommandHook[];
  plugins: readonly PluginHook[];
  info: HookSessionInfo;
  workspace: string;
  env(): Record<string, string>;
  redact?(text: string): string;
  /** `permission_mode` in Claude Code's words. */
  mode: string;
  remember(hook: object, audit: HookAudit): void;
}

/** One event to run. */
export interface EventRequest {
  event: HookEvent;
  match?: string;
  fields: Record<string, unknown>;
  tool?: ToolHookCall;
  signal?: AbortSignal;
}

function word(v: HookVerdict): string {
  return v.block ? "block" : v.permission ?? (v.error ? "error" : "ok");
}

function toolFields(tool: ToolHookCall, vocabulary: "claude" | "navi", workspace: string) {
  return {
    tool_name: hookToolName(tool.tool, vocabulary),
    tool_input: vocabulary === "claude" ? toClaudeInput(tool.tool, tool.args, workspace) : tool.args,
    tool_use_id: tool.callId,
  };
}

function common(req: EventRequest, ctx: EventContext): Record<string, unknown> {
  return {
    session_id: ctx.info.sessionId,
    transcript_path: ctx.info.transcriptPath,
    cwd: ctx.workspace,
    permission_mode: ctx.mode,
    hook_event_name: req.event,
  };
}

async function runOne(
  hook: CommandHook,
  req: EventRequest,
  ctx: EventContext,
): Promise<HookVerdict | undefined> {
  const vocabulary = hook.source.vocabulary;
  const tool = req.tool && toolFields(req.tool, vocabulary, ctx.workspace);
  if (!hook.matches(tool ? tool.tool_name : req.match)) return undefined;
  const input = JSON.stringify({ ...common(req, ctx), ...(tool ?? {}), ...req.fields });
  const env: Record<string, string> = { ...ctx.env(), NAVI_PROJECT_DIR: ctx.workspace };
  if (vocabulary === "claude") env.CLAUDE_PROJECT_DIR = ctx.workspace;
  if (hook.source.pluginRoot) env.CLAUDE_PLUGIN_ROOT = hook.source.pluginRoot;
  const run = await runCommandHook(hook, input, {
    cwd: ctx.workspace,
    env,
    sandbox: ctx.info.sandbox,
    signal: req.signal,
  });
  const clean = ctx.redact ?? ((t: string) => t);
  const label = hook.command.length > 60 ? `${hook.command.slice(0, 59)}…` : hook.command;
  const verdict = readRun(req.event, { ...run, stdout: clean(run.stdout), stderr: clean(run.stderr) }, label);
  if (verdict.updatedInput && req.tool && vocabulary === "claude") {
    verdict.updatedInput = fromClaudeInput(req.tool.tool, verdict.updatedInput, ctx.workspace);
  }
  ctx.remember(hook, {
    event: req.event,
    source: hook.line ? `${hook.source.file}:${hook.line}` : hook.source.file,
    command: clean(hook.command),
    exit: run.code,
    ...(run.ended ? { ended: run.ended } : {}),
    ms: run.ms,
    result: word(verdict),
  });
  return verdict;
}

async function runPlugin(
  hook: PluginHook,
  req: EventRequest,
  ctx: EventContext,
): Promise<HookVerdict | undefined> {
  const tool = req.tool && toolFields(req.tool, "navi", ctx.workspace);
  if (!hook.matches(tool ? tool.tool_name : req.match)) return undefined;
  const started = performance.now();
  let verdict: HookVerdict;
  try {
    verdict = readDecision(
      await hook.call({ ...common(req, ctx), ...(tool ?? {}), ...req.fields }, req.signal),
    );
  } catch (err) {
    verdict = { error: `plugin ${hook.plugin} hook ${req.event} failed: ${(err as Error).message}` };
  }
  ctx.remember(hook, {
    event: req.event,
    source: `plugin ${hook.plugin}`,
    command: `plugin ${hook.plugin}`,
    exit: verdict.error ? null : 0,
    ms: Math.round(performance.now() - started),
    result: word(verdict),
  });
  return verdict;
}

/** Run `req.event`'s matching hooks of `ctx` in parallel and combine what they decided. */
export async function runEvent(req: EventRequest, ctx: EventContext): Promise<HookOutcome> {
  const runs = await Promise.all([
    ...ctx.commands.map((h) => runOne(h, req, ctx)),
    ...ctx.plugins.map((h) => runPlugin(h, req, ctx)),
  ]);
  return combine(runs.filter((v): v is HookVerdict => v !== undefined));
}
