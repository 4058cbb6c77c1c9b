// What navi asks the editor for: approvals (session/request_permission), file reads and writes (fs/*) and
// command runs (terminal/*), each behind the engine's own interface (AskUser, FileAccess, CommandRunner).
import type * as acp from "@agentclientprotocol/sdk";
import type { Answer, AskUser, Reply } from "../approval/mod.ts";
import { type CommandOutcome, type CommandRunner, type FileAccess, LOCAL_FILES } from "../tool/mod.ts";
import { diffContent, toolKind, toolLocations, toolTitle } from "./tool_view.ts";

/** What the editor side of one session offers. */
export interface ClientSide {
  /** Calls client methods. */
  client: acp.AgentContext;
  /** The ACP session. */
  sessionId: string;
  /** The workspace (absolute), for absolute paths in questions. */
  workspace: string;
  /** Sends a `session/update` (in order with the others). */
  send(update: acp.SessionUpdate): void;
  /** Makes display text safe: secrets redacted in every string. */
  redact<T>(value: T): T;
}

const OPTIONS = (always: string): acp.PermissionOption[] => [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: always, kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/**
 * Approvals as `session/request_permission`: allow once, allow always (for a command: commands starting with
 * the suggested prefix) and reject. A cancelled question, or one the client fails to answer, is a no.
 */
export function askClient(side: ClientSide, signal: () => AbortSignal | undefined): AskUser {
  return async (q): Promise<Answer | Reply> => {
    const always = q.outside
      ? `Always allow ${q.tool} outside the workspace here`
      : q.prefix
      ? `Always allow commands starting with ${q.prefix}`
      : `Always allow ${q.tool}`;
    const toolCall: acp.ToolCallUpdate = side.redact({
      toolCallId: q.callId ?? `navi_question_${crypto.randomUUID()}`,
      title: q.outside ? `${q.tool}: ${q.summary}` : toolTitle(q.tool, q.args),
      kind: toolKind(q.tool),
      rawInput: q.args,
      locations: toolLocations(q.args, side.workspace),
      ...(q.preview ? { content: [diffContent(q.preview, side.workspace)] } : {}),
    });
    try {
      const res = await side.client.request(
        "session/request_permission",
        { sessionId: side.sessionId, toolCall, options: OPTIONS(always) },
        { cancellationSignal: signal(), stopWaitingOnCancel: true },
      );
      if (res.outcome.outcome !== "selected") return "no";
      if (res.outcome.optionId === "allow_once") return "yes";
      if (res.outcome.optionId === "allow_always") return { answer: "always", prefix: q.prefix };
      return "no";
    } catch {
      return "no";
    }
  };
}

/** File tools through `fs/read_text_file` and `fs/write_text_file`, each where the client offers it. */
export function clientFiles(side: ClientSide, caps: acp.FileSystemCapabilities | undefined): FileAccess {
  return {
    readText: caps?.readTextFile
      ? async (path) =>
        (await side.client.request("fs/read_text_file", { sessionId: side.sessionId, path })).content
      : LOCAL_FILES.readText,
    writeText: caps?.writeTextFile
      ? async (path, content) => {
        await side.client.request("fs/write_text_file", { sessionId: side.sessionId, path, content });
      }
      : LOCAL_FILES.writeText,
  };
}

/**
 * `bash` through the editor's terminals: the sandboxed argv runs under `env -i` with exactly navi's child
 * environment (the editor's own environment, which may hold navi's keys, does not leak into it), the
 * terminal is shown in the tool call, killed at the timeout or on cancel, and released at the end.
 */
export function clientTerminals(side: ClientSide, terminals: Map<string, string>): CommandRunner {
  return {
    async run(run): Promise<CommandOutcome> {
      const env = Object.entries(run.env).map(([k, v]) => `${k}=${v}`);
      const term = await side.client.createTerminal({
        sessionId: side.sessionId,
        command: "env",
        args: ["-i", ...env, ...run.argv],
        cwd: run.cwd,
        outputByteLimit: run.maxChars,
      });
      if (run.callId) {
        terminals.set(run.callId, term.id);
        side.send({
          sessionUpdate: "tool_call_update",
          toolCallId: run.callId,
          content: [{ type: "terminal", terminalId: term.id }],
        });
      }
      let stopped: "timeout" | "abort" | undefined;
      const stop = (why: "timeout" | "abort") => {
        stopped ??= why;
        term.kill().catch(() => {});
      };
      const timer = setTimeout(() => stop("timeout"), run.timeoutMs);
      const onAbort = () => stop("abort");
      run.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const exit = await term.waitForExit();
        const out = await term.currentOutput();
        const output = (out.truncated ? "[... the start of the output was dropped]\n" : "") + out.output;
        return { code: exit.exitCode ?? null, output, dropped: 0, ...(stopped ? { stopped } : {}) };
      } finally {
        clearTimeout(timer);
        run.signal.removeEventListener("abort", onAbort);
        await term.release().catch(() => {});
      }
    },
  };
}
