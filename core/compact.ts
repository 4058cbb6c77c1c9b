import { type ChatFn, isAbort } from "./llm.ts";
import type { Message } from "./session.ts";

/** The instruction of a summary request. */
export const COMPACT_PROMPT: string = [
  "Summarize this conversation so that it can continue in a new one without the old messages.",
  "Keep: the user's goals and constraints, decisions made, files read or changed (with paths), commands run",
  "and their outcome, open problems and the next steps. Be concise and factual; do not call tools.",
].join(" ");

/**
 * Ask the model for a summary of `messages` (one request without tools); nothing is recorded. Returns ""
 * when `signal` aborts; a failed or incomplete response throws (a cut summary is never returned).
 */
export async function summarizeConversation(
  chat: ChatFn,
  messages: readonly Message[],
  signal: AbortSignal,
): Promise<string> {
  let text = "";
  try {
    for await (
      const chunk of chat(
        { messages: [...messages, { role: "user", content: COMPACT_PROMPT }], tools: [] },
        signal,
      )
    ) {
      const delta = chunk.choices?.[0]?.delta?.content;
      if (typeof delta === "string") text += delta;
    }
  } catch (err) {
    if (isAbort(err, signal)) return "";
    throw err;
  }
  return text.trim();
}

/** The first message of a conversation that continues from a summary of session `from`. */
export function summaryMessage(from: string, summary: string): Message {
  return {
    role: "user",
    content: `<conversation-summary session="${from}">\n${summary}\n</conversation-summary>`,
  };
}
