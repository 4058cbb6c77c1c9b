// The vocabulary of Chat Completions that every part of navi shares: messages and tool calls.

/** A Chat Completions message as navi stores and sends it. */
export type Message = Record<string, unknown> & { role: "system" | "user" | "assistant" | "tool" };

/** A tool call as the model sent it. */
export interface ToolCall {
  /** The call's id; the tool message with the result answers it by this id. */
  id: string;
  /** The tool the model called. */
  name: string;
  /** The arguments as JSON text, not yet parsed. */
  arguments: string;
}
