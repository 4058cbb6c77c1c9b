import { Agent, type AgentEvents } from "../agent/agent.ts";
import type { NaviApp } from "./app.ts";
import { ApprovalPolicy, type AskUser } from "../approval/policy.ts";
import { CacheStats, toolChangeLabel } from "../toollist/cache_stats.ts";
import type { ApprovalMode } from "../config.ts";
import { modelLimits } from "../context/window.ts";
import { loadInstructions } from "../context/instructions.ts";
import { LlmClient } from "../provider/llm.ts";
import { systemPrompt } from "../context/prompt.ts";
import { type LoadedSession, Session, SessionError } from "../session/session.ts";
import { newestSessionIn, resolveSessionId } from "../session/list.ts";
import { deferralSettings, ToolDeferral } from "../toollist/deferral.ts";
import type { ToolPool } from "../toollist/pool.ts";

/** How to open a conversation. */
export interface ConversationOptions {
  /** A configured provider to use instead of the default (`--provider`). */
  provider?: string;
  /** A model to use instead of the configured one (`--model`). */
  model?: string;
  /** The approval mode to start in (default: config, else "ask"). */
  approval?: ApprovalMode;
  /** The id of a session to resume (`--resume`). */
  resume?: string;
  /** Resume the newest session started in this workspace (`--continue`). */
  continue?: boolean;
  /** Asks the user for approval; without it, calls that need approval are refused. */
  ask?: AskUser;
  /** Progress callbacks for the user interface. */
  events?: AgentEvents;
}

/** Everything one conversation needs, wired together. */
export interface Conversation {
  /** Runs the user's turns. */
  agent: Agent;
  /** The model client; its `overrides` switch provider or model mid-conversation. */
  llm: LlmClient;
  /** Owns the approval mode; switching `policy.mode` changes the offered tools from the next request. */
  policy: ApprovalPolicy;
  /** The tool list offered to the model. */
  pool: ToolPool;
  /** Problems found while resuming (corrupt lines, unanswered tool calls), for the user. */
  warnings: string[];
  /** Release the session (its lock); also done by `app.close()`. */
  close(): void;
  /** Whether this conversation continues a saved session. */
  resumed: boolean;
}

/** Start a new conversation or resume a persisted one (`--resume <id>`, `--continue`). */
export function openConversation(app: NaviApp, opts: ConversationOptions): Conversation {
  const llm = new LlmClient(app.config, { provider: opts.provider, model: opts.model });
  const policy = new ApprovalPolicy({
    mode: opts.approval ?? app.config.approval?.mode ?? "ask",
    allow: app.config.approval?.allow,
    deny: app.config.approval?.deny,
    ask: opts.ask && ((q) => opts.ask!({ ...q, summary: app.secrets.redact(q.summary) })),
    sandboxAllows: (tool) => tool === "bash" ? app.sandbox.autoAllows() : Promise.resolve(false),
  });
  const warnings: string[] = [];
  const redact = (text: string) => app.secrets.redact(text);
  let session: Session;
  let loaded: LoadedSession | undefined;
  let id = opts.resume;
  if (opts.continue && !id) {
    id = newestSessionIn(app.home, app.workspace);
    if (!id) throw new SessionError(`no session to continue in ${app.workspace}`);
  }
  if (id) {
    loaded = Session.load(app.home, resolveSessionId(app.home, id), { redact });
    session = loaded.session;
    warnings.push(...loaded.warnings);
    const completed = session.completeToolCalls();
    if (completed) {
      warnings.push(`${completed} tool call(s) had no result (navi stopped mid-call); marked as failed`);
    }
  } else {
    const choice = safeChoice(llm);
    session = Session.create(
      app.home,
      { cwd: app.workspace, provider: choice?.name, model: choice?.model },
      { redact },
    );
    session.addMessage({
      role: "system",
      content: systemPrompt({
        workspace: app.workspace,
        date: new Date().toISOString().slice(0, 10),
        platform: `${Deno.build.os} ${Deno.build.arch}`,
      }),
    });
    const instructions = loadInstructions({ workspace: app.workspace, home: app.home });
    if (instructions.text) session.addMessage({ role: "user", content: instructions.text });
  }
  const opened = session;
  const close = () => opened.close();
  app.onClose(close);
  const pool = app.createPool({ readOnly: () => policy.mode === "plan" });
  const last = loaded?.requests.at(-1);
  const cache = new CacheStats({
    history: loaded?.requests,
    previous: loaded?.tools && last
      ? { tools: loaded.tools, messages: session.messages.slice(0, last.messages) }
      : undefined,
    label: toolChangeLabel(app.registry, () => policy.mode),
  });
  const deferral = new ToolDeferral(pool, app.registry, {
    settings: deferralSettings(app.config.tools),
    sent: loaded?.tools,
    state: loaded?.deferred,
    lastRequestAt: cache.lastRequestAt(),
  });
  const agent = new Agent({
    registry: app.registry,
    pool,
    session,
    policy,
    chat: llm.chat,
    workspace: app.workspace,
    maxSteps: app.config.max_steps,
    childEnv: () => app.secrets.childEnv(Deno.env),
    sandbox: app.sandbox,
    redact,
    events: opts.events,
    deferral,
    cache,
    model: () => safeChoice(llm)?.model,
    beforeRequest: () => app.settleMcp(),
    limits: () => modelLimits(safeChoice(llm)?.model, app.config.models),
  });
  if (loaded?.tools && last && !last.summary && last.prompt_tokens) {
    const sent = [...loaded.tools, ...session.messages.slice(0, last.messages)];
    agent.keeper.tokens.calibrate(agent.keeper.tokens.raw(sent), last.prompt_tokens);
  }
  return { agent, llm, policy, pool, warnings, close, resumed: Boolean(id) };
}

function safeChoice(llm: LlmClient) {
  try {
    return llm.current();
  } catch {
    return undefined;
  }
}
