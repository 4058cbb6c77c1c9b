// A conversation: the session, tools array, context keeper, approval policy, hooks, checkpoints, background
// shells and subagent host of one agent, wired in one place for every front. Over 300 lines because each part
// is built here by its own small function; openConversation only joins them.
import { Agent, type AgentEvents } from "../agent/mod.ts";
import {
  Checkpoints,
  CheckpointStore,
  copyStore,
  type RewindChoice,
  type RewindResult,
  rewindSession,
  storeDir,
} from "../checkpoints/mod.ts";
import { ApprovalPolicy, type AskUser } from "../approval/mod.ts";
import type { Clock } from "../clock/mod.ts";
import type { ApprovalMode, ReasoningEffort } from "../config/mod.ts";
import {
  ContextKeeper,
  type Instructions,
  isInstructionsMessage,
  loadInstructions,
  modelLimits,
  systemPrompt,
} from "../context/mod.ts";
import type { CommandRunner, FileAccess } from "../tool/mod.ts";
import { listedSkills, skillsBlock } from "../extensions/mod.ts";
import { LlmClient, type Message } from "../provider/mod.ts";
import {
  type LoadedSession,
  newestSessionIn,
  resolveSessionId,
  Session,
  SessionError,
} from "../session/mod.ts";
import { ShellManager } from "../shells/mod.ts";
import { deferralSettings, ToolList } from "../toollist/mod.ts";
import { displayPath } from "../workspace/mod.ts";
import type { NaviApp } from "./app.ts";
import { subagentHost } from "./subagents.ts";
import { tracedChat } from "./traced_chat.ts";
import type { SessionHooks } from "../hooks/mod.ts";
import type { SessionSandbox } from "../sandbox/mod.ts";

/** How to open a conversation. */
export interface ConversationOptions {
  /** A configured provider to use instead of the default (`--provider`). */
  provider?: string;
  /** A model to use instead of the configured one (`--model`). */
  model?: string;
  /** A reasoning effort instead of the configured one (`--effort`). */
  effort?: ReasoningEffort;
  /** The approval mode to start in (default: config, else "ask"). */
  approval?: ApprovalMode;
  /** The id of a session to resume (`--resume`). */
  resume?: string;
  /** Resume the newest session started in this workspace (`--continue`). */
  continue?: boolean;
  /**
   * With `resume` or `continue`: fork that session instead (`--fork-session`): a new session with its history
   * (`true`: all of it; a number: up to the end of that turn). The original is only read.
   */
  fork?: boolean | number;
  /** Asks the user for approval; without it, calls that need approval are refused. */
  ask?: AskUser;
  /** Progress callbacks for the user interface. */
  events?: AgentEvents;
  /** Where file tools read and write (an editor's buffers over ACP); default: the local file system. */
  files?: FileAccess;
  /** Where `bash` runs commands (an editor's terminals over ACP); default: local child processes. */
  commandRunner?: CommandRunner;
  /** The clock of retry waits, the deferral's cache TTL and session timestamps (default the system clock). */
  clock?: Clock;
  /** This conversation replaces one the user cleared (`/clear`): SessionStart hooks see source `clear`. */
  cleared?: boolean;
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
  /** The workspace root its tools work in (and a rewind restores in). */
  workspace: string;
  /** The session's checkpoint store (nothing is added to it when `checkpoints.enabled` is false). */
  checkpoints: CheckpointStore;
  /**
   * Rewind to the end of a turn: the files, the conversation, or both (see `rewindSession`). The conversation
   * the agent sends changes at once; deferred tool changes are folded at the next request.
   */
  rewind(req: RewindChoice): Promise<RewindResult>;
  /** The session's background shells (`/shells`, the status line). */
  shells: ShellManager;
  /**
   * Run the SessionEnd hooks (`reason`, default `other`), stop the checkpoint recorder and the session's
   * background shells, end its network namespace and release the session (its lock); also done by
   * `app.close()`. Safe to call twice.
   */
  close(reason?: "clear" | "prompt_input_exit" | "other"): Promise<void>;
  /** Whether this conversation continues a saved session. */
  resumed: boolean;
}

/** Start a new conversation or resume a persisted one (`--resume <id>`, `--continue`). */
export function openConversation(app: NaviApp, opts: ConversationOptions): Conversation {
  const { clock } = opts;
  const now = clock && (() => clock.now());
  const { provider, model, effort } = opts;
  const llm = new LlmClient(app.config, { provider, model, effort, env: app.env, clock });
  const hooked: { events?: AgentEvents } = {};
  const ask = askAnnounced(app, { ask: opts.ask, events: () => hooked.events });
  const policy = conversationPolicy(app, { mode: opts.approval, ask });
  const { session, loaded, warnings } = openSession(app, { ...opts, llm, now });
  const { sandbox, shells, close: stopProcesses } = sessionProcesses(app, session);
  const hooks = sessionHooks(app, { session, policy, sandbox });
  const events = hooked.events = notifying(opts.events, hooks);
  const ckpt = checkpointing(app, { session, notice: (l) => events?.notice?.(l), then: stopProcesses });
  let closing: Promise<void> | undefined;
  const close = (reason = "other") =>
    closing ??= hooks.settle().then(() => hooks.fire("SessionEnd", { reason }, { match: reason }))
      .then(ckpt.close, ckpt.close);
  app.onClose(() => close());
  const last = loaded?.requests.at(-1);
  const tools = new ToolList(app.registry, {
    readOnly: () => policy.mode === "plan",
    mode: () => policy.mode,
    settings: deferralSettings(app.config.tools),
    features: app.config.features,
    now,
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
    chat: tracedChat(llm.chat, app.trace),
    workspace: app.workspace,
    maxSteps: app.config.max_steps,
    childEnv: () => app.childEnv(),
    sandbox,
    shells,
    redact: (text) => app.secrets.redact(text),
    events,
    hooks,
    sessionSource: loaded ? "resume" : opts.cleared ? "clear" : "startup",
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.commandRunner ? { commandRunner: opts.commandRunner } : {}),
    model: () => safeChoice(llm)?.model,
    beforeRequest: () => app.mcp.settle(),
    skills: app.extensions,
    readable: () => app.extensions.skills.map((s) => s.dir),
    turnReminder: skillReminder(app, { session, resumed: loaded !== undefined }),
    now,
    checkpoints: ckpt.recorder,
    subagents: subagentHost(app, { session, policy, ask, llm, opts, sandbox, shells, now, ckpt, hooks }),
  });
  const base = { agent, llm, policy, tools, warnings, shells, close, resumed: loaded !== undefined };
  const rewind = (req: RewindChoice) => ckpt.rewind(req, () => tools.deferral.coldPoint());
  return { ...base, workspace: app.workspace, checkpoints: ckpt.store, rewind };
}

/** The conversation's approval policy: its mode (else config.json's, else ask) and config.json's rules. */
function conversationPolicy(app: NaviApp, opts: { mode?: ApprovalMode; ask?: AskUser }): ApprovalPolicy {
  return new ApprovalPolicy({
    mode: opts.mode ?? app.config.approval?.mode ?? "ask",
    allow: app.config.approval?.allow,
    deny: app.config.approval?.deny,
    ask: opts.ask,
    sandboxAllows: (tool) => tool === "bash" ? app.sandbox.autoAllows() : Promise.resolve(false),
  });
}

/** The user's `ask`, its question redacted and announced first as a wait for the user (`waitingForUser`). */
function askAnnounced(
  app: NaviApp,
  opts: { ask?: AskUser; events: () => AgentEvents | undefined },
): AskUser | undefined {
  const ask = opts.ask;
  if (!ask) return undefined;
  return (q) => {
    const summary = app.secrets.redact(q.summary);
    opts.events()?.waitingForUser?.({ reason: "approval", tool: q.tool, summary });
    return ask({ ...q, summary });
  };
}

/** The session's hooks: its id, transcript and approval mode in their input, its audit, its sandbox. */
function sessionHooks(
  app: NaviApp,
  opts: { session: Session; policy: ApprovalPolicy; sandbox: SessionSandbox },
): SessionHooks {
  const { session, policy } = opts;
  return app.hooks.session({
    sessionId: session.meta.id,
    transcriptPath: session.file,
    mode: () => policy.mode,
    audit: (record) => session.auditHook(record),
    sandbox: opts.sandbox,
  });
}

/** `events` with Notification hooks attached to `waitingForUser` (an approval waits; a turn ended). */
function notifying(events: AgentEvents | undefined, hooks: SessionHooks): AgentEvents | undefined {
  if (!hooks.has("Notification")) return events;
  return {
    ...events,
    waitingForUser: (wait) => {
      events?.waitingForUser?.(wait);
      if (wait.reason === "turn_end" && wait.aborted) return;
      const [type, message] = wait.reason === "approval"
        ? ["permission_prompt", `navi needs your permission to use ${wait.tool}`]
        : ["idle_prompt", "navi is waiting for your input"];
      void hooks.fire("Notification", { message, notification_type: type }, { match: type });
    },
  };
}

/**
 * What a session runs besides its turns: its sandbox (one network namespace) and its background shells, and
 * the one `close` that stops them and then releases the session.
 */
function sessionProcesses(app: NaviApp, session: Session) {
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
  return { sandbox, shells, close };
}

/**
 * The session's checkpoint recorder (unless `checkpoints.enabled` is false), its store, its rewind, and the one
 * `close`: the recorder first, then `then` (the session's processes and the session).
 */
function checkpointing(
  app: NaviApp,
  opts: { session: Session; notice?: (line: string) => void; then: () => Promise<void> },
) {
  const { session } = opts;
  const recorder = app.config.checkpoints?.enabled === false ? undefined : new Checkpoints({
    home: app.home,
    sessionId: session.meta.id,
    workspace: app.workspace,
    settings: app.config.checkpoints,
    notice: (line) => opts.notice?.(line),
  });
  const store = recorder?.store ?? new CheckpointStore(storeDir(app.home, session.meta.id));
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      try {
        await recorder?.close();
      } finally {
        await opts.then();
      }
    })();
  const rewind = async (req: RewindChoice, coldPoint: () => void) => {
    const root = await Deno.realPath(app.workspace);
    const result = await rewindSession(session, { ...req, root, store });
    if (result.conversation) coldPoint();
    return result;
  };
  return { recorder, store, close, rewind };
}

/** The session a conversation records to: a resumed one (with its warnings) or a new one. */
function openSession(
  app: NaviApp,
  opts: Pick<ConversationOptions, "resume" | "continue" | "fork"> & { llm: LlmClient; now?: () => number },
): { session: Session; loaded?: LoadedSession; warnings: string[] } {
  const redact = (text: string) => app.secrets.redact(text);
  const { now } = opts;
  let id = opts.resume;
  if (opts.continue && !id) {
    id = newestSessionIn(app.home, app.workspace, {
      accept: (messages) => messages.some((m) => m.role !== "system" && !isInstructionsMessage(m)),
    });
    if (!id) throw new SessionError(`no conversation to continue in ${app.workspace}`);
  }
  if (opts.fork !== undefined && opts.fork !== false && !id) {
    throw new SessionError("--fork-session forks the session given with --resume <id> or --continue");
  }
  if (id) {
    const resolved = resolveSessionId(app.home, id);
    const turn = opts.fork === true ? undefined : opts.fork;
    const forking = opts.fork !== undefined && opts.fork !== false;
    const loaded = forking
      ? Session.fork(app.home, resolved, { redact, now, turn: turn as number | undefined })
      : Session.load(app.home, resolved, { redact, now });
    if (forking) {
      try {
        copyStore(app.home, { from: resolved, to: loaded.session.meta.id, turn: turn as number | undefined });
      } catch { /* the fork's code rewinds start at the fork then */ }
    }
    const warnings = [...loaded.warnings];
    const completed = loaded.session.completeToolCalls();
    if (completed) {
      warnings.push(`${completed} tool call(s) had no result (navi stopped mid-call); marked as failed`);
    }
    return { session: loaded.session, loaded, warnings };
  }
  const choice = safeChoice(opts.llm);
  const preamble: Message[] = [{
    role: "system",
    content: systemPrompt({
      workspace: app.workspace,
      date: new Date().toISOString().slice(0, 10),
      platform: `${Deno.build.os} ${Deno.build.arch}`,
    }),
  }];
  const instructions = loadInstructions({ workspace: app.workspace, home: app.home });
  const head = headText(app, { instructions, model: choice?.model });
  if (head.text) preamble.push({ role: "user", content: head.text });
  const session = Session.create(
    app.home,
    { cwd: app.workspace, provider: choice?.name, model: choice?.model },
    { redact, preamble, now },
  );
  return { session, warnings: head.cut ? [head.cut] : [] };
}

/**
 * The message after the system prompt: the project instructions and the block listing the skills the model may
 * activate (capped at 2% of `model`'s window); `cut` is a line for the user when skills were left out.
 */
export function headText(
  app: NaviApp,
  opts: { instructions: Instructions; model?: string },
): { text: string; cut?: string } {
  const window = modelLimits(opts.model, app.config.models).contextWindow;
  const skills = skillsBlock(app.extensions.skills, {
    capBytes: Math.floor(window * 0.02) * 4,
    display: (path) => displayPath(app.workspace, path),
  });
  const text = [opts.instructions.text, skills.text].filter(Boolean).join("\n\n");
  const cut = skills.cut
    ? `${skills.cut} of ${
      skills.cut + skills.listed.length
    } skills are not listed for the model (the list is capped at 2% of the context window); /skills lists them all`
    : undefined;
  return { text, cut };
}

/** Tells the model, at the start of a turn, about skills added since its skills block was written. */
function skillReminder(
  app: NaviApp,
  opts: { session: Session; resumed: boolean },
): () => Promise<string | undefined> {
  const known = new Set(opts.resumed ? knownSkills(opts.session) : app.extensions.skills.map((s) => s.name));
  return async () => {
    await app.extensions.refresh();
    const added = app.extensions.skills.filter((s) => s.modelInvocable && !known.has(s.name));
    if (!added.length) return undefined;
    for (const s of added) known.add(s.name);
    const lines = added.map((s) => `- ${s.name}: ${s.description} (${displayPath(app.workspace, s.file)})`);
    return [SKILLS_ADDED, ...lines].join("\n");
  };
}

const SKILLS_ADDED = "Skills added during this conversation (activate one with the skill tool):";

/** The skills a saved conversation was told of: its skills block and the reminders after it. */
function knownSkills(session: Session): string[] {
  const names: string[] = [];
  session.messages.forEach((m, i) => {
    if (typeof m.content !== "string") return;
    if (i <= 1 && isInstructionsMessage(m)) names.push(...listedSkills(m.content));
    if (m.content.startsWith(`<system-reminder>${SKILLS_ADDED}`)) {
      names.push(...[...m.content.matchAll(/^- ([a-z0-9-]+): /gm)].map((x) => x[1]));
    }
  });
  return names;
}

function safeChoice(llm: LlmClient) {
  try {
    return llm.current();
  } catch {
    return undefined;
  }
}
