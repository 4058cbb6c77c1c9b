// Runs subagents for one conversation: a fresh context on the same Agent loop, rights never wider than its own.
import { existsSync, readdirSync } from "node:fs";
import { Agent, type AgentEvents, type SubagentInfo } from "../agent/mod.ts";
import { ApprovalPolicy, type ApprovalQuestion, type AskUser } from "../approval/mod.ts";
import type { CheckpointHooks } from "../checkpoints/mod.ts";
import type { AgentSettings, ApprovalMode } from "../config/mod.ts";
import { ContextKeeper, type ModelLimits } from "../context/mod.ts";
import { type ChatFn, totalUsage, type Usage } from "../provider/mod.ts";
import type { SessionHooks } from "../hooks/mod.ts";
import { Session } from "../session/mod.ts";
import type {
  BackgroundShells,
  CommandRunner,
  CommandSandbox,
  FileAccess,
  SkillLoader,
  SubagentLauncher,
  SubagentRequest,
  ToolRegistry,
  ToolResult,
} from "../tool/mod.ts";
import { assemble, type DeferralSettings, ToolList } from "../toollist/mod.ts";
import type { AgentCatalog } from "./catalog.ts";
import type { AgentDefinition } from "./definition.ts";
import { OneAtATime, Slots } from "./slots.ts";
import { onlyThese, stricterMode, subagentTools } from "./tools.ts";
import { subagentSystemPrompt, usageLine } from "./prompt.ts";

/** What a conversation lends its subagents. */
export interface SubagentHostOptions {
  /** The agents there are. */
  catalog: AgentCatalog;
  /** The `agents` section of config.json. */
  settings?: AgentSettings;
  /** Every tool of the app (the subagent's are a subset). */
  registry: ToolRegistry;
  /** The parent's session: transcripts go under its folder, runs are recorded in it. */
  session: Session;
  /** The parent's approval mode now (a subagent's is the same or stricter). */
  mode: () => ApprovalMode;
  /** The allow and deny rules of config.json (the parent's). */
  rules: { allow?: string[]; deny?: string[] };
  /** Asks the user (the parent's asker; absent: calls needing approval are refused, as for the parent). */
  ask?: AskUser;
  /** Whether the enforced sandbox lets `tool` run without asking (the parent's). */
  sandboxAllows?: (tool: string) => Promise<boolean>;
  /** `features` of config.json (the parent's tool gates). */
  features?: Record<string, boolean>;
  /** The `tools` settings with defaults applied. */
  deferral: DeferralSettings;
  /** The chat function for `model` (absent: the parent's model) and that model's name. */
  chat(model?: string): { chat: ChatFn; model?: string };
  /** The model's window (for the subagent's context keeper). */
  limits?: (model?: string) => ModelLimits;
  /** The workspace root. */
  workspace: string;
  /** What the parent's tool calls get: environment, sandbox, shells, file access, skills. */
  childEnv?: () => Record<string, string>;
  /** The sandbox child processes run in. */
  sandbox?: CommandSandbox;
  /** The session's background shells. */
  shells?: BackgroundShells;
  /** Removes known secrets from results and transcripts. */
  redact?: (text: string) => string;
  /** Where file tools read and write. */
  files?: FileAccess;
  /** Where `bash` runs commands. */
  commandRunner?: CommandRunner;
  /** The skills the `skill` tool loads. */
  skills?: SkillLoader;
  /** More directories tools may read without asking. */
  readable?: () => string[];
  /** Awaited before each model request. */
  beforeRequest?: () => Promise<void>;
  /** The parent's events: subagentStart/subagentTool/subagentEnd, approvals. */
  events?: AgentEvents;
  /** The session's hooks: SubagentStart here, the tool events and SubagentStop in each subagent's loop. */
  hooks?: SessionHooks;
  /** The parent's checkpoints: what a subagent's calls change belongs to the parent's turn. */
  checkpoints?: CheckpointHooks;
  /** How deep the parent is (0: the conversation itself). */
  depth?: number;
  /** Puts the questions of all subagents of a conversation on screen one at a time (shared by nested hosts). */
  questions?: OneAtATime;
  /** The clock (ms since the epoch). */
  now?: () => number;
}

const DEFAULT_PARALLEL = 4;
const DEFAULT_DEPTH = 1;
const DEFAULT_TURNS = 20;

/** Starts the subagents of one conversation (the `task` tool's launcher). */
export class SubagentHost implements SubagentLauncher {
  #opts: SubagentHostOptions;
  #slots: Slots;
  #questions: OneAtATime;
  #taken = new Set<number>();

  /** A host for the conversation `opts` describes. */
  constructor(opts: SubagentHostOptions) {
    this.#opts = opts;
    this.#slots = new Slots(opts.settings?.max_parallel ?? DEFAULT_PARALLEL);
    this.#questions = opts.questions ?? new OneAtATime();
  }

  /** How deep this host's subagents are (1 for the conversation's). */
  get depth(): number {
    return (this.#opts.depth ?? 0) + 1;
  }

  /** Run one subagent to its end (waiting for a free slot first); never throws. */
  async run(req: SubagentRequest, opts: { signal: AbortSignal; callId?: string }): Promise<ToolResult> {
    const agent = this.#opts.catalog.get(req.agent);
    if (!agent) {
      const names = this.#opts.catalog.agents.map((a) => a.name).join(", ");
      return { ok: false, error: `No agent named ${JSON.stringify(req.agent)}; agents: ${names}` };
    }
    const maxDepth = this.#opts.settings?.max_depth ?? DEFAULT_DEPTH;
    if (this.depth > maxDepth) {
      return { ok: false, error: depthLimit(maxDepth) };
    }
    let release: (() => void) | undefined;
    try {
      release = await this.#slots.take(opts.signal);
    } catch {
      return { ok: false, error: "Aborted by the user" };
    }
    try {
      return await this.#runAgent(agent, { req, ...opts });
    } finally {
      release();
    }
  }

  async #runAgent(
    agent: AgentDefinition,
    opts: { req: SubagentRequest; signal: AbortSignal; callId?: string },
  ): Promise<ToolResult> {
    const o = this.#opts;
    const now = o.now ?? Date.now;
    const started = now();
    const n = this.#number();
    const { chat, model } = o.chat(agent.model);
    const session = Session.subagent(o.session, {
      n,
      agent: agent.name,
      model,
      preamble: [{ role: "system", content: subagentSystemPrompt(agent, o.workspace) }],
      redact: o.redact,
      now: o.now,
    });
    const info: SubagentInfo = {
      n,
      agent: agent.name,
      description: opts.req.description,
      ...(opts.callId ? { callId: opts.callId } : {}),
      depth: this.depth,
      transcript: session.file,
    };
    const maxTurns = agent.maxTurns ?? o.settings?.max_turns ?? DEFAULT_TURNS;
    const hookInfo = { id: `${o.session.meta.id}-${n}`, type: agent.name, transcript: session.file };
    const hooks = o.hooks?.forSubagent(hookInfo);
    const sub = this.#agent(agent, { session, chat, model, info, maxTurns, signal: opts.signal, hooks });
    o.events?.subagentStart?.(info);
    let text = "";
    let error: string | undefined;
    try {
      const prompt = await this.#startHooks(hookInfo, { prompt: opts.req.prompt, signal: opts.signal });
      const result = await sub.run(prompt, opts.signal);
      text = result.text;
      if (result.aborted) error = "Aborted by the user";
      else if (result.stoppedAtLimit) error = `${agent.name} reached its limit of ${maxTurns} model requests`;
    } catch (err) {
      error = `${agent.name} failed: ${(err as Error).message.split("\n")[0]}`;
      text = lastAssistantText(session);
    } finally {
      session.close();
    }
    const usage = totalUsage(session.usage);
    const ms = Math.round(now() - started);
    this.#record({ info, started, ok: !error, error, ms, model, usage });
    o.events?.subagentEnd?.(info, { ok: !error, text, ...(error ? { error } : {}), usage, ms });
    const line = usageLine(usage, ms);
    if (error) return { ok: false, error, agent: agent.name, partial_answer: text, usage: line };
    return { ok: true, agent: agent.name, answer: text, usage: line };
  }

  /** SubagentStart hooks: their context goes with the task prompt (as a system reminder). */
  async #startHooks(
    who: { id: string; type: string },
    opts: { prompt: string; signal: AbortSignal },
  ): Promise<string> {
    const hooks = this.#opts.hooks;
    if (!hooks?.has("SubagentStart")) return opts.prompt;
    const out = await hooks.fire("SubagentStart", { agent_id: who.id, agent_type: who.type }, {
      match: who.type,
      signal: opts.signal,
    });
    for (const line of out.messages) this.#opts.events?.notice?.(line);
    if (!out.context.length) return opts.prompt;
    return `${opts.prompt}\n\n<system-reminder>\n${out.context.join("\n")}\n</system-reminder>`;
  }

  #agent(
    agent: AgentDefinition,
    opts: {
      session: Session;
      chat: ChatFn;
      model?: string;
      info: SubagentInfo;
      maxTurns: number;
      signal: AbortSignal;
      hooks?: SessionHooks;
    },
  ): Agent {
    const o = this.#opts;
    const mode = stricterMode(o.mode(), agent.permissionMode);
    const policy = new ApprovalPolicy({
      mode,
      allow: o.rules.allow,
      deny: o.rules.deny,
      ask: o.ask &&
        ((q) =>
          this.#questions.run(() => o.ask!(asAgent(q, agent.name)), {
            signal: opts.signal,
            fallback: "no",
          })),
      sandboxAllows: o.sandboxAllows,
    });
    const maxDepth = o.settings?.max_depth ?? DEFAULT_DEPTH;
    const parent = assemble(o.registry, { readOnly: o.mode() === "plan", features: o.features ?? {} })
      .map((t) => t.name);
    const names = subagentTools(agent, { parent, registry: o.registry, nest: this.depth < maxDepth });
    const tools = new ToolList(o.registry, {
      readOnly: () => policy.mode === "plan",
      mode: () => policy.mode,
      settings: { ...o.deferral, defer: "never" },
      features: onlyThese(names),
      now: o.now,
    });
    const { session } = opts;
    const keeper = new ContextKeeper({
      session,
      cache: tools.cache,
      limits: o.limits && (() => o.limits!(opts.model)),
      sourceOf: (tool) => o.registry.sourceOf(tool),
      coldPoint: () => tools.deferral.coldPoint(),
    });
    const child = names.includes("task")
      ? new SubagentHost({ ...o, session, depth: this.depth, questions: this.#questions })
      : undefined;
    return new Agent({
      ...pick(o),
      registry: o.registry,
      tools,
      keeper,
      session,
      policy,
      chat: opts.chat,
      maxSteps: opts.maxTurns,
      events: this.#events(opts.info),
      model: () => opts.model,
      cacheKey: `${o.session.meta.id}:${agent.name}`,
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
      ...(child ? { subagents: child } : {}),
      ...(this.depth >= maxDepth ? { unavailable: { task: depthLimit(maxDepth) } } : {}),
    });
  }

  #events(info: SubagentInfo): AgentEvents {
    const parent = this.#opts.events;
    return {
      toolStart: (call) => parent?.subagentTool?.(info, call.name),
      waitingForUser: (wait) => wait.reason === "approval" && parent?.waitingForUser?.(wait),
      subagentStart: parent?.subagentStart,
      subagentTool: parent?.subagentTool,
      subagentEnd: parent?.subagentEnd,
    };
  }

  /** The next free transcript number: past this process's and every file already in the folder. */
  #number(): number {
    const dir = this.#opts.session.agentDir;
    let n = Math.max(0, ...this.#taken);
    if (existsSync(dir)) {
      for (const name of readdirSync(dir)) {
        const m = /^(\d+)\.jsonl$/.exec(name);
        if (m) n = Math.max(n, Number(m[1]));
      }
    }
    this.#taken.add(n + 1);
    return n + 1;
  }

  #record(
    r: {
      info: SubagentInfo;
      started: number;
      ok: boolean;
      error?: string;
      ms: number;
      model?: string;
      usage: Usage;
    },
  ): void {
    try {
      this.#opts.session.recordSubagent({
        n: r.info.n,
        agent: r.info.agent,
        description: r.info.description,
        at: new Date(r.started).toISOString(),
        ok: r.ok,
        ...(r.error ? { error: r.error } : {}),
        ms: r.ms,
        model: r.model ?? "unknown",
        usage: r.usage,
      });
    } catch { /* a record that cannot be written must not lose the answer */ }
  }
}

/** A subagent's question as the user sees it: its agent named, no call id (fronts know only the parent's calls). */
function asAgent(q: ApprovalQuestion, agent: string): ApprovalQuestion {
  const { callId: _callId, ...rest } = q;
  return { ...rest, agent };
}

function depthLimit(maxDepth: number): string {
  return `A subagent cannot start subagents here (agents.max_depth is ${maxDepth})`;
}

/** The parts of the parent's tool context a subagent's calls share. */
function pick(o: SubagentHostOptions) {
  return {
    workspace: o.workspace,
    ...(o.childEnv ? { childEnv: o.childEnv } : {}),
    ...(o.sandbox ? { sandbox: o.sandbox } : {}),
    ...(o.shells ? { shells: o.shells } : {}),
    ...(o.redact ? { redact: o.redact } : {}),
    ...(o.files ? { files: o.files } : {}),
    ...(o.commandRunner ? { commandRunner: o.commandRunner } : {}),
    ...(o.skills ? { skills: o.skills } : {}),
    ...(o.readable ? { readable: o.readable } : {}),
    ...(o.beforeRequest ? { beforeRequest: o.beforeRequest } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.checkpoints ? { checkpoints: withinTurn(o.checkpoints) } : {}),
  };
}

/** The parent's checkpoint hooks, except that a subagent's turn does not start a checkpoint of its own. */
function withinTurn(c: CheckpointHooks): CheckpointHooks {
  return { beginTurn: () => {}, expect: () => c.expect(), beforeCall: (call) => c.beforeCall(call) };
}

function lastAssistantText(session: Session): string {
  for (let i = session.messages.length - 1; i >= 0; i--) {
    const m = session.messages[i];
    if (m.role === "assistant" && typeof m.content === "string" && m.content) return m.content;
  }
  return "";
}
