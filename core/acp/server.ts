// `navi acp`: the agent side of the Agent Client Protocol over a byte stream (stdio), with the SDK's agent app.
import * as acp from "@agentclientprotocol/sdk";
import { isAbsolute } from "node:path";
import { bootApp, type NaviApp } from "../app/mod.ts";
import {
  type ApprovalMode,
  type Config,
  loadConfig,
  type McpServerConfig,
  validServerName,
} from "../config/mod.ts";
import { type Env, escapeControls } from "../output/mod.ts";
import { listSessions, SessionError } from "../session/mod.ts";
import type { Tool } from "../tool/mod.ts";
import { VERSION } from "../version.ts";
import { AcpSession } from "./session.ts";

/** What `navi acp` runs with. */
export interface AcpOptions {
  /** navi's home directory (config, sessions, plugins). */
  home: string;
  /** navi's environment. */
  env: Env;
  /** The built-in tools, fresh for each session's app (the engine never imports `tools/`). */
  builtins(): Tool[];
  /** Where the client's messages arrive (stdin). */
  input: ReadableStream<Uint8Array>;
  /** Where navi's messages go (stdout): JSON-RPC only, nothing else may be written there. */
  output: WritableStream<Uint8Array>;
  /** A line for the user outside the protocol (stderr, which editors keep as the agent's log). */
  log(line: string): void;
  /** The approval mode sessions start in (default: config, else ask). */
  approval?: ApprovalMode;
  /** config.json as already read (tests); default: read for each session. */
  config?: Config;
}

/** The client's MCP servers in navi's config shape (SSE is not a transport navi speaks: left out, logged). */
export function clientServers(
  servers: readonly acp.McpServer[],
  log: (line: string) => void,
): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of servers) {
    const name = s.name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/_{2,}/g, "_") || "server";
    if (!validServerName(name)) continue;
    if ("type" in s && s.type === "sse") {
      log(`MCP server ${s.name} from the editor uses SSE, which navi does not speak; left out`);
    } else if ("type" in s && s.type === "http") {
      out[name] = { url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
    } else if ("command" in s) {
      out[name] = {
        command: s.command,
        args: s.args,
        env: Object.fromEntries(s.env.map((e) => [e.name, e.value])),
      };
    }
  }
  return out;
}

/** A handler's failure as a JSON-RPC error: navi's own errors keep their one line, secrets redacted. */
function asRequestError(err: unknown, redact: (text: string) => string): acp.RequestError {
  if (err instanceof acp.RequestError) return err;
  const message = redact(err instanceof Error ? err.message : String(err));
  return err instanceof SessionError
    ? acp.RequestError.invalidParams(undefined, message)
    : acp.RequestError.internalError(undefined, message);
}

/** The ACP agent: one navi app and conversation per session, all closed when the connection ends. */
class NaviAgent {
  #o: AcpOptions;
  #sessions = new Map<string, AcpSession>();
  #caps?: acp.ClientCapabilities;
  #client?: acp.AgentContext;

  constructor(o: AcpOptions) {
    this.#o = o;
  }

  /** The SDK app with navi's handlers. */
  app(): acp.AgentApp {
    const guard =
      <P, R>(fn: (params: P, signal: AbortSignal) => Promise<R>) =>
      async ({ params, signal }: { params: P; signal: AbortSignal }) => {
        try {
          return await fn(params, signal);
        } catch (err) {
          throw asRequestError(err, (t) => this.#redact(t));
        }
      };
    return acp.agent({ name: "navi" })
      .onConnect((conn) => void (this.#client = conn.client))
      .onRequest("initialize", guard((p: acp.InitializeRequest) => Promise.resolve(this.#initialize(p))))
      .onRequest("session/new", guard((p: acp.NewSessionRequest) => this.#newSession(p)))
      .onRequest("session/load", guard((p: acp.LoadSessionRequest) => this.#loadSession(p)))
      .onRequest(
        "session/prompt",
        guard(async (p: acp.PromptRequest, signal) => ({
          stopReason: await this.#need(p.sessionId).prompt(p.prompt, signal),
        })),
      )
      .onNotification("session/cancel", ({ params }) => this.#sessions.get(params.sessionId)?.cancel())
      .onRequest(
        "session/set_mode",
        guard((p: acp.SetSessionModeRequest) => {
          this.#need(p.sessionId).setMode(p.modeId);
          return Promise.resolve({});
        }),
      )
      .onRequest(
        "session/set_config_option",
        guard((p: acp.SetSessionConfigOptionRequest) =>
          Promise.resolve({ configOptions: this.#need(p.sessionId).setOption(p.configId, p.value) })
        ),
      )
      .onRequest("session/list", guard((p: acp.ListSessionsRequest) => Promise.resolve(this.#list(p))))
      .onRequest(
        "session/close",
        guard(async (p: acp.CloseSessionRequest) => {
          await this.#need(p.sessionId).close();
          this.#sessions.delete(p.sessionId);
          return {};
        }),
      );
  }

  /** Close every session (their apps, MCP servers and session locks). */
  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((s) => s.close().catch(() => {})));
  }

  #initialize(p: acp.InitializeRequest): acp.InitializeResponse {
    this.#caps = p.clientCapabilities;
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: { close: {}, list: {} },
      },
      agentInfo: { name: "navi", title: "navi", version: VERSION },
      authMethods: [],
    };
  }

  async #newSession(p: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    const s = await this.#open(p);
    s.announceSoon();
    return { sessionId: s.id, modes: s.modes(), configOptions: s.configOptions() };
  }

  async #loadSession(p: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> {
    const live = this.#sessions.get(p.sessionId);
    this.#sessions.delete(p.sessionId);
    await live?.close();
    const s = await this.#open(p, p.sessionId);
    await s.replay();
    s.announceSoon();
    return { modes: s.modes(), configOptions: s.configOptions() };
  }

  async #open(p: { cwd: string; mcpServers: acp.McpServer[] }, resume?: string): Promise<AcpSession> {
    if (!isAbsolute(p.cwd)) throw acp.RequestError.invalidParams(undefined, `cwd must be absolute: ${p.cwd}`);
    const dir = await Deno.stat(p.cwd).catch(() => undefined);
    if (!dir?.isDirectory) {
      throw acp.RequestError.invalidParams(undefined, `cwd is not a directory: ${p.cwd}`);
    }
    const app = await this.#boot(await Deno.realPath(p.cwd), p.mcpServers);
    try {
      const s = await AcpSession.open({
        client: this.#client!,
        caps: this.#caps,
        app,
        log: this.#o.log,
        ...(resume ? { resume } : {}),
        ...(this.#o.approval ? { approval: this.#o.approval } : {}),
      });
      this.#sessions.set(s.id, s);
      s.listModels();
      return s;
    } catch (err) {
      await app.close();
      throw err;
    }
  }

  async #boot(workspace: string, servers: acp.McpServer[]): Promise<NaviApp> {
    const { home, env, log } = this.#o;
    const config = this.#o.config ?? await loadConfig(home);
    const fromClient = clientServers(servers, log);
    const merged: Config = { ...config, mcp_servers: { ...config.mcp_servers, ...fromClient } };
    const app = await bootApp({
      home,
      workspace,
      env,
      builtins: this.#o.builtins(),
      config: merged,
      report: (line) => log(line.text),
    });
    for (const s of Object.values(fromClient)) for (const v of Object.values(s.env ?? {})) app.secrets.add(v);
    return app;
  }

  /** navi's saved sessions (of one directory, when the client names it), newest first, titled by their first prompt. */
  #list(p: acp.ListSessionsRequest): acp.ListSessionsResponse {
    const sessions = listSessions(this.#o.home).filter((s) => !p.cwd || s.cwd === p.cwd);
    return {
      sessions: sessions.map((s) => ({
        sessionId: s.id,
        cwd: s.cwd,
        title: escapeControls(
          s.first_prompt.startsWith("<") ? "" : s.first_prompt.split("\n")[0].slice(0, 120),
        ),
        updatedAt: s.created,
      })),
    };
  }

  #need(id: string): AcpSession {
    const s = this.#sessions.get(id);
    if (!s) {
      throw acp.RequestError.invalidParams(undefined, `no session ${id} (session/new or session/load first)`);
    }
    return s;
  }

  #redact(text: string): string {
    let out = text;
    for (const s of this.#sessions.values()) out = s.app.secrets.redact(out);
    return out;
  }
}

/**
 * Speak ACP on `input`/`output` until the client closes the connection; returns the exit status (0). Messages
 * that are not JSON-RPC are answered with errors by the SDK and navi carries on.
 */
export async function serveAcp(opts: AcpOptions): Promise<number> {
  const agent = new NaviAgent(opts);
  const connection = agent.app().connect(acp.ndJsonStream(opts.output, opts.input));
  try {
    await connection.closed;
  } finally {
    await agent.close();
  }
  return 0;
}
