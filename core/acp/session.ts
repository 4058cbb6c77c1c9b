// One ACP session: its own app (workspace = the client's cwd, MCP servers merged) and conversation, opened
// with the one start-up sequence; prompts, cancel, modes, the model option and the replay of a saved session.
import * as acp from "@agentclientprotocol/sdk";
import { type Conversation, type NaviApp, startConversation } from "../app/mod.ts";
import { APPROVAL_MODES, type ApprovalMode } from "../config/mod.ts";
import { expandMentions } from "../mentions/mod.ts";
import { ApiError, ProviderError } from "../provider/mod.ts";
import { askClient, clientFiles, type ClientSide, clientTerminals } from "./client_io.ts";
import {
  type AcpCommand,
  advertised,
  commandCall,
  type CommandContext,
  sessionCommands,
} from "./commands.ts";
import { readPrompt, replayUpdates, userContent } from "./content.ts";
import { acpEvents } from "./events.ts";

/** What a session is opened with. */
export interface SessionOpen {
  /** Calls the client. */
  client: acp.AgentContext;
  /** What the client said it can do at `initialize`. */
  caps?: acp.ClientCapabilities;
  /** The session's app: navi's config with the client's MCP servers, the client's cwd as the workspace. */
  app: NaviApp;
  /** The navi session to continue (`session/load`). */
  resume?: string;
  /** The approval mode to start in (`navi acp --approval`). */
  approval?: ApprovalMode;
  /** A line for navi's log (stderr). */
  log(line: string): void;
}

const MODES: acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "ask before a tool changes something" },
  { id: "plan", name: "Plan", description: "read-only tools; nothing is changed" },
  { id: "auto", name: "Auto", description: "run every tool without asking" },
];

/** One ACP session over one navi conversation. */
export class AcpSession {
  /** The ACP session id: the navi session id. */
  id = "";
  readonly app: NaviApp;
  #convo!: Conversation;
  #o: SessionOpen;
  #queue: Promise<void> = Promise.resolve();
  #running?: AbortController;
  #commands: AcpCommand[] = [];
  #models: string[] = [];

  private constructor(o: SessionOpen) {
    this.#o = o;
    this.app = o.app;
  }

  /** Open the conversation (new, or the saved one for `resume`) and announce the commands. */
  static async open(o: SessionOpen): Promise<AcpSession> {
    const s = new AcpSession(o);
    const side: ClientSide = {
      client: o.client,
      get sessionId() {
        return s.id;
      },
      workspace: o.app.workspace,
      send: (update) => s.send(update),
      redact: (value) => s.#redact(value),
    };
    const terminals = new Map<string, string>();
    s.#convo = await startConversation(o.app, {
      ...(o.resume ? { resume: o.resume } : {}),
      ...(o.approval ? { approval: o.approval } : {}),
      ask: askClient(side, () => s.#running?.signal),
      events: acpEvents({
        send: (u) => s.send(u),
        workspace: o.app.workspace,
        approvalOf: (name) => o.app.registry.get(name)?.approval,
        terminals,
        secrets: o.app.secrets,
      }),
      ...(o.caps?.fs?.readTextFile || o.caps?.fs?.writeTextFile
        ? { files: clientFiles(side, o.caps.fs) }
        : {}),
      ...(o.caps?.terminal ? { commandRunner: clientTerminals(side, terminals) } : {}),
      // Awaited, as in -p: the session's first prompt has its MCP tools (bounded by connect_timeout_s).
      mcp: "await",
      terminal: false,
      report: (line) => o.log(`${line.kind === "warning" ? "warning: " : ""}${line.text}`),
    });
    s.id = s.#convo.agent.session.meta.id;
    s.#models = s.#knownModels();
    return s;
  }

  /** Send one `session/update` after the ones before it; secrets are redacted from every string. */
  send(update: acp.SessionUpdate): void {
    const params = this.#redact({ sessionId: this.id, update });
    this.#queue = this.#queue.then(() => this.#o.client.notify("session/update", params)).catch((err) =>
      this.#o.log(`session/update failed: ${(err as Error).message}`)
    );
  }

  /** Resolves once every update sent so far went out. */
  flush(): Promise<void> {
    return this.#queue;
  }

  /** Announce the slash commands: the built-in ones and the MCP servers' prompts. */
  async #announce(): Promise<void> {
    this.#commands = await sessionCommands(this.app);
    this.send({ sessionUpdate: "available_commands_update", availableCommands: advertised(this.#commands) });
  }

  /** Send the commands once the `session/new` answer is out (a notification must not overtake it). */
  announceSoon(): void {
    setTimeout(() => this.#announce().catch((err) => this.#o.log(`commands: ${(err as Error).message}`)), 0);
  }

  /** The conversation so far as updates (session/load); resolves when they were sent. */
  async replay(): Promise<void> {
    for (const u of replayUpdates(this.#convo.agent.session.messages, this.app.workspace)) this.send(u);
    await this.flush();
  }

  /** The approval modes, with the current one. */
  modes(): acp.SessionModeState {
    return { currentModeId: this.#convo.policy.mode, availableModes: MODES };
  }

  /** Switch the approval mode (`session/set_mode`). */
  setMode(mode: string): void {
    if (!(APPROVAL_MODES as readonly string[]).includes(mode)) {
      throw acp.RequestError.invalidParams(
        undefined,
        `unknown mode ${mode}; use ${APPROVAL_MODES.join(", ")}`,
      );
    }
    this.#convo.policy.mode = mode as ApprovalMode;
    this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
  }

  /** The session's options: the model, a choice of the configured and listed models. */
  configOptions(): acp.SessionConfigOption[] {
    const current = this.#model();
    const values = [...new Set([...(current ? [current] : []), ...this.#models])];
    return [{
      type: "select",
      id: "model",
      name: "Model",
      category: "model",
      currentValue: current ?? "",
      options: values.map((v) => ({ value: v, name: v })),
    }];
  }

  /** Set an option (`session/set_config_option`): `model` switches the model from the next request. */
  setOption(id: string, value: unknown): acp.SessionConfigOption[] {
    if (id !== "model" || typeof value !== "string" || !value) {
      throw acp.RequestError.invalidParams(undefined, `navi has no option ${id} of that kind (model)`);
    }
    this.#setModel(value);
    return this.configOptions();
  }

  /** Ask the provider for its models in the background; the model option grows when they arrive. */
  listModels(): void {
    this.#convo.llm.listModels({ timeoutMs: 10_000 }).then((ids) => {
      const before = this.#models.length;
      this.#models = [...new Set([...this.#models, ...ids])];
      if (this.#models.length !== before) {
        this.send({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
      }
    }).catch(() => {});
  }

  /** Run one prompt to its end: an answer, the step limit or a cancel. */
  async prompt(blocks: acp.ContentBlock[], signal: AbortSignal): Promise<acp.StopReason> {
    if (this.#running) throw acp.RequestError.invalidRequest(undefined, "a prompt is already running");
    const running = this.#running = new AbortController();
    const onAbort = () => running.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.#turn(blocks, running.signal);
    } catch (err) {
      if (running.signal.aborted) return "cancelled";
      if (err instanceof ApiError || err instanceof ProviderError) {
        throw acp.RequestError.internalError(undefined, this.app.secrets.redact(err.message));
      }
      throw err;
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.#running = undefined;
      await this.flush();
    }
  }

  async #turn(blocks: acp.ContentBlock[], signal: AbortSignal): Promise<acp.StopReason> {
    const think = (text: string) =>
      this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `${text}\n` } });
    const input = await readPrompt(blocks, { workspace: this.app.workspace, mentions: this.app.mentions });
    input.problems.forEach(think);
    let text = input.text;
    const call = !input.attached.length && !input.images.length
      ? commandCall(text, this.#commands)
      : undefined;
    if (call) {
      const outcome = await call.command.run(call.args, this.#commandContext(signal));
      if ("say" in outcome) {
        this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: outcome.say } });
        return "end_turn";
      }
      outcome.notes?.forEach(think);
      if (outcome.model) this.#convo.llm.overrides.model = outcome.model;
      text = outcome.submit;
    }
    const expanded = await expandMentions(text, this.app.mentions);
    expanded.problems.forEach(think);
    const result = await this.#convo.agent.run(userContent(expanded.text, input), signal);
    if (signal.aborted || result.aborted) return "cancelled";
    return result.stoppedAtLimit ? "max_turn_requests" : "end_turn";
  }

  /** Stop the running prompt (`session/cancel`); it answers `cancelled`. */
  cancel(): void {
    this.#running?.abort();
  }

  /** End the session: its prompt, its app (plugins, MCP servers) and the session lock. */
  async close(): Promise<void> {
    this.cancel();
    await this.flush();
    await this.app.close();
  }

  #commandContext(signal: AbortSignal): CommandContext {
    return {
      app: this.app,
      convo: this.#convo,
      signal,
      setMode: (mode) => this.setMode(mode),
      setModel: (model) => this.#setModel(model),
    };
  }

  #setModel(model: string): void {
    this.#convo.llm.overrides.model = model;
    if (!this.#models.includes(model)) this.#models.push(model);
    this.send({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
  }

  #model(): string | undefined {
    try {
      return this.#convo.llm.current().model;
    } catch {
      return undefined;
    }
  }

  #knownModels(): string[] {
    const { models, prices, model } = this.app.config;
    return [
      ...new Set([...(model ? [model] : []), ...Object.keys(models ?? {}), ...Object.keys(prices ?? {})]),
    ];
  }

  #redact<T>(value: T): T {
    return JSON.parse(this.app.secrets.redact(JSON.stringify(value)));
  }
}
