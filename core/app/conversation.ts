import { Agent, type AgentEvents } from "../agent/mod.ts";
import { ApprovalPolicy, type AskUser } from "../approval/mod.ts";
import type { ApprovalMode } from "../config/mod.ts";
import { ContextKeeper, loadInstructions, modelLimits, systemPrompt } from "../context/mod.ts";
import { LlmClient } from "../provider/mod.ts";
import {
  type LoadedSession,
  newestSessionIn,
  resolveSessionId,
  Session,
  SessionError,
} from "../session/mod.ts";
import { ShellManager } from "../shells/mod.ts";
import { deferralSettings, ToolList } from "../toollist/mod.ts";
import type { NaviApp } from "./app.ts";

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
  /** The conversation's tool list (the live pool, the array sent, the cache figures). */
  tools: ToolList;
  /** Problems found while resuming (corrupt lines, unanswered tool calls), for the user. */
  warnings: string[];
  /** The session's background shells (`/shells`, the status line). */
  shells: ShellManager;
  /**
   * Stop the session's background shells, end its network namespace and release the session (its lock);
   * also done by `app.close()`. Safe to call twice.
   */
  close(): Promise<void>;
  /** Whether this conversation continues a saved session. */
  resumed: boolean;
}

/** Start a new conversation or resume a persisted one (`--resume <id>`, `--continue`). */
export function openConversation(app: NaviApp, opts: ConversationOptions): Conversation {
  const llm = new LlmClient(app.config, { provider: opts.provider, model: opts.model, env: app.env });
  const ask = opts.ask && ((q: Parameters<AskUser>[0]) => {
    const summary = app.secrets.redact(q.summary);
    opts.events?.waitingForUser?.({ reason: "approval", tool: q.tool, summary });
    return opts.ask!({ ...q, summary });
  });
  const policy = new ApprovalPolicy({
    mode: opts.approval ?? app.config.approval?.mode ?? "ask",
    allow: app.config.approval?.allow,
    deny: app.config.approval?.deny,
    ask,
    sandboxAllows: (tool) => tool === "bash" ? app.sandbox.autoAllows() : Promise.resolve(false),
  });
  const { session, loaded, warnings } = openSession(app, { ...opts, llm });
  const sandbox = app.sandbox.session();
  const shells = new ShellManager({
    home: app.home,
    session: session.meta.id,
    dir: session.shellDir,
    redactor: app.secrets,
  });
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      try {
        await shells.close();
        await sandbox.close();
      } finally {
        session.close();
      }
    })();
  app.onClose(close);
  const last = loaded?.requests.at(-1);
  const tools = new ToolList(app.registry, {
    readOnly: () => policy.mode === "plan",
    mode: () => policy.mode,
    settings: deferralSettings(app.config.tools),
    features: app.config.features,
    resumed: loaded && {
      tools: loaded.tools,
      deferred: loaded.deferred,
      requests: loaded.requests,
      lastMessages: last ? session.messages.slice(0, last.messages) : undefined,
    },
  });
  const limits = () => modelLimits(safeChoice(llm)?.model, app.config.models);
  const keeper = new ContextKeeper({
    session,
    cache: tools.cache,
    limits,
    sourceOf: (tool) => app.registry.sourceOf(tool),
    coldPoint: () => tools.deferral.coldPoint(),
  });
  if (loaded?.tools && last && !last.summary && last.prompt_tokens) {
    const sent = [...loaded.tools, ...session.messages.slice(0, last.messages)];
    keeper.tokens.calibrate(keeper.tokens.raw(sent), last.prompt_tokens);
  }
  const agent = new Agent({
    registry: app.registry,
    tools,
    keeper,
    session,
    policy,
    chat: llm.chat,
    workspace: app.workspace,
    maxSteps: app.config.max_steps,
    childEnv: () => app.childEnv(),
    sandbox,
    shells,
    redact: (text) => app.secrets.redact(text),
    events: opts.events,
    model: () => safeChoice(llm)?.model,
    beforeRequest: () => app.mcp.settle(),
  });
  return { agent, llm, policy, tools, warnings, shells, close, resumed: loaded !== undefined };
}

/** The session a conversation records to: a resumed one (with its warnings) or a new one. */
function openSession(
  app: NaviApp,
  opts: Pick<ConversationOptions, "resume" | "continue"> & { llm: LlmClient },
): { session: Session; loaded?: LoadedSession; warnings: string[] } {
  const redact = (text: string) => app.secrets.redact(text);
  let id = opts.resume;
  if (opts.continue && !id) {
    id = newestSessionIn(app.home, app.workspace);
    if (!id) throw new SessionError(`no session to continue in ${app.workspace}`);
  }
  if (id) {
    const loaded = Session.load(app.home, resolveSessionId(app.home, id), { redact });
    const warnings = [...loaded.warnings];
    const completed = loaded.session.completeToolCalls();
    if (completed) {
      warnings.push(`${completed} tool call(s) had no result (navi stopped mid-call); marked as failed`);
    }
    return { session: loaded.session, loaded, warnings };
  }
  const choice = safeChoice(opts.llm);
  const session = Session.create(
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
  return { session, warnings: [] };
}

function safeChoice(llm: LlmClient) {
  try {
    return llm.current();
  } catch {
    return undefined;
  }
}
