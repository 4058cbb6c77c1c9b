import { Agent, type AgentEvents } from "./agent.ts";
import type { NaviApp } from "./app.ts";
import { ApprovalPolicy, type AskUser } from "./approval.ts";
import { LlmClient } from "./llm.ts";
import type { ApprovalMode } from "./config.ts";
import type { ToolPool } from "./tool_pool.ts";
import { systemPrompt } from "./prompt.ts";
import { newestSessionIn, Session, SessionError } from "./session.ts";

export interface ConversationOptions {
  provider?: string;
  model?: string;
  resume?: string;
  continue?: boolean;
  ask?: AskUser;
  events?: AgentEvents;
}

/** Everything one conversation needs, wired together. */
export interface Conversation {
  agent: Agent;
  llm: LlmClient;
  policy: ApprovalPolicy;
  pool: ToolPool;
  /** Switch the approval mode; the tool list follows from the next request. */
  setMode(mode: ApprovalMode): void;
  warnings: string[];
}

/** Start a new conversation or resume a persisted one (`--resume <id>`, `--continue`). */
export function openConversation(app: NaviApp, opts: ConversationOptions): Conversation {
  const llm = new LlmClient(app.config, { provider: opts.provider, model: opts.model });
  const { secrets } = app;
  const policy = new ApprovalPolicy({
    mode: app.approvalMode,
    allow: app.config.approval?.allow,
    deny: app.config.approval?.deny,
    ask: opts.ask,
  });
  const warnings: string[] = [];
  let session: Session;
  let id = opts.resume;
  if (opts.continue && !id) {
    id = newestSessionIn(app.home, app.workspace);
    if (!id) throw new SessionError(`no session to continue in ${app.workspace}`);
  }
  if (id) {
    const loaded = Session.load(app.home, id);
    session = loaded.session;
    warnings.push(...loaded.warnings);
    const completed = session.completeToolCalls();
    if (completed) {
      warnings.push(`${completed} tool call(s) had no result (navi stopped mid-call); marked as failed`);
    }
  } else {
    const choice = safeChoice(llm);
    session = Session.create(app.home, { cwd: app.workspace, provider: choice?.name, model: choice?.model });
    session.addMessage({
      role: "system",
      content: systemPrompt({
        workspace: app.workspace,
        date: new Date().toISOString().slice(0, 10),
        platform: `${Deno.build.os} ${Deno.build.arch}`,
      }),
    });
  }
  const pool = app.createPool(session.tools);
  const agent = new Agent({
    registry: app.registry,
    pool,
    session,
    policy,
    chat: llm.chat,
    workspace: app.workspace,
    maxSteps: app.config.max_steps,
    childEnv: () => secrets.childEnv(Deno.env),
    redact: (text) => secrets.redact(text),
    events: opts.events,
  });
  const setMode = (mode: ApprovalMode) => {
    app.approvalMode = mode;
    policy.mode = mode;
    pool.setFilter(app.poolFilter());
  };
  return { agent, llm, policy, pool, warnings, setMode };
}

function safeChoice(llm: LlmClient) {
  try {
    return llm.current();
  } catch {
    return undefined;
  }
}
