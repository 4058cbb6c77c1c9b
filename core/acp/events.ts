// The agent's events as ACP `session/update`s: answer text as message chunks, each tool call as `tool_call`
// then `tool_call_update`s (status, locations, diffs, terminals, results), navi's notices as thought chunks.
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentEvents } from "../agent/mod.ts";
import { compactionNote } from "./commands.ts";
import { escapeControls, RedactingStream, type Redactor } from "../output/mod.ts";
import type { ToolCall } from "../provider/mod.ts";
import type { ApprovalClass, ToolResult } from "../tool/mod.ts";
import {
  argsOf,
  diffContent,
  rawOutput,
  resultDiff,
  resultText,
  textContent,
  toolKind,
  toolLocations,
  toolTitle,
} from "./tool_view.ts";

/** What the event mapper works with. */
export interface AcpEventsOptions {
  /** Sends one update (in order; secrets are redacted by the sender). */
  send(update: acp.SessionUpdate): void;
  /** The workspace (absolute): tool paths become absolute locations. */
  workspace: string;
  /** A tool's approval class (its kind when navi has no better one). */
  approvalOf(name: string): ApprovalClass | undefined;
  /** Terminals that ran a call's command (call id to terminal id), kept in its final content. */
  terminals: Map<string, string>;
  /** Redacts streamed text across pieces. */
  secrets: Redactor;
}

/** Agent events for one ACP session; the todo list (todo_write) goes to the editor as `plan` updates. */
export function acpEvents(opts: AcpEventsOptions): AgentEvents {
  const { send, workspace } = opts;
  let text = new RedactingStream(opts.secrets);
  const say = (
    chunk: string,
    kind: "agent_message_chunk" | "agent_thought_chunk" = "agent_message_chunk",
  ) => {
    if (chunk) send({ sessionUpdate: kind, content: { type: "text", text: escapeControls(chunk) } });
  };
  return {
    requestStart: () => (text = new RedactingStream(opts.secrets)),
    text: (delta) => say(text.push(delta)),
    responseEnd: () => say(text.flush()),
    plan: (items) =>
      send({
        sessionUpdate: "plan",
        entries: items.map((i) => ({
          content: escapeControls(i.content),
          priority: "medium",
          status: i.status,
        })),
      }),
    toolStart: (call: ToolCall) => {
      const args = argsOf(call.arguments);
      send({
        sessionUpdate: "tool_call",
        toolCallId: call.id,
        title: escapeControls(toolTitle(call.name, args)),
        kind: toolKind(call.name, opts.approvalOf(call.name)),
        status: "pending",
        rawInput: args,
        locations: toolLocations(args, workspace),
      });
    },
    toolDecision: (call, d) => {
      if (d.allowed) send({ sessionUpdate: "tool_call_update", toolCallId: call.id, status: "in_progress" });
    },
    toolEnd: (call: ToolCall, outcome: { result: ToolResult; content?: string }) => {
      const { result } = outcome;
      const diff = resultDiff(result);
      const terminal = opts.terminals.get(call.id);
      opts.terminals.delete(call.id);
      const content: acp.ToolCallContent[] = [
        ...(terminal ? [{ type: "terminal" as const, terminalId: terminal }] : []),
        ...(diff ? [diffContent(diff, workspace)] : []),
        ...(!terminal && !diff
          ? [textContent(escapeControls(resultText(result, outcome.content ?? "")))]
          : []),
        ...(!result.ok && (terminal || diff) ? [textContent(escapeControls(result.error))] : []),
      ];
      send({
        sessionUpdate: "tool_call_update",
        toolCallId: call.id,
        status: result.ok ? "completed" : "failed",
        content,
        rawOutput: rawOutput(result),
      });
    },
    notice: (note) => say(`${note}\n`, "agent_thought_chunk"),
    retry: (info) => say(`${info.message}\n`, "agent_thought_chunk"),
    compaction: (info) => say(`${compactionNote(info)}\n`, "agent_thought_chunk"),
  };
}
