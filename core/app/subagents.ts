// The subagent host of one conversation: what the parent lends its subagents, wired from the app.
import type { AgentEvents } from "../agent/mod.ts";
import { SubagentHost } from "../agents/mod.ts";
import type { CheckpointHooks } from "../checkpoints/mod.ts";
import type { SessionHooks } from "../hooks/mod.ts";
import type { ApprovalPolicy, AskUser } from "../approval/mod.ts";
import { modelLimits } from "../context/mod.ts";
import { LlmClient } from "../provider/mod.ts";
import type { Session } from "../session/mod.ts";
import type { BackgroundShells, CommandRunner, CommandSandbox, FileAccess } from "../tool/mod.ts";
import type { Clock } from "../clock/mod.ts";
import type { ReasoningEffort } from "../config/mod.ts";
import { deferralSettings } from "../toollist/mod.ts";
import type { NaviApp } from "./app.ts";

/** What of the conversation's options its subagents use (the provider, effort, clock, fronts' routes, events). */
export interface SubagentConversation {
  /** The provider a model named by an agent file is asked on. */
  provider?: string;
  /** The reasoning effort. */
  effort?: ReasoningEffort;
  /** The clock of retries. */
  clock?: Clock;
  /** Where file tools read and write. */
  files?: FileAccess;
  /** Where `bash` runs commands. */
  commandRunner?: CommandRunner;
  /** The conversation's events (subagents report through them). */
  events?: AgentEvents;
}

/** Build the host that runs the `task` tool's subagents for a conversation on `session`. */
export function subagentHost(
  app: NaviApp,
  parts: {
    session: Session;
    policy: ApprovalPolicy;
    ask?: AskUser;
    llm: LlmClient;
    opts: SubagentConversation;
    sandbox: CommandSandbox;
    shells: BackgroundShells;
    now?: () => number;
    ckpt: { recorder?: CheckpointHooks };
    hooks?: SessionHooks;
  },
): SubagentHost {
  const { session, policy, llm, opts } = parts;
  const current = () => {
    try {
      return llm.current().model;
    } catch {
      return undefined;
    }
  };
  const chat = (model?: string) => {
    if (!model) return { chat: llm.chat, model: current() };
    const own = new LlmClient(app.config, {
      provider: opts.provider,
      model,
      effort: opts.effort,
      env: app.env,
      clock: opts.clock,
    });
    return { chat: own.chat, model };
  };
  return new SubagentHost({
    catalog: app.agents,
    settings: app.config.agents,
    registry: app.registry,
    session,
    mode: () => policy.mode,
    rules: { allow: app.config.approval?.allow, deny: app.config.approval?.deny },
    ...(parts.ask ? { ask: parts.ask } : {}),
    sandboxAllows: (tool) => tool === "bash" ? app.sandbox.autoAllows() : Promise.resolve(false),
    features: app.config.features,
    deferral: deferralSettings(app.config.tools),
    chat,
    limits: (model) => modelLimits(model ?? current(), app.config.models),
    workspace: app.workspace,
    childEnv: () => app.childEnv(),
    sandbox: parts.sandbox,
    shells: parts.shells,
    redact: (text) => app.secrets.redact(text),
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.commandRunner ? { commandRunner: opts.commandRunner } : {}),
    skills: app.extensions,
    readable: () => app.extensions.skills.map((s) => s.dir),
    beforeRequest: () => app.mcp.settle(),
    ...(opts.events ? { events: opts.events } : {}),
    ...(parts.hooks ? { hooks: parts.hooks } : {}),
    ...(parts.now ? { now: parts.now } : {}),
    ...(parts.ckpt.recorder ? { checkpoints: parts.ckpt.recorder } : {}),
  });
}
