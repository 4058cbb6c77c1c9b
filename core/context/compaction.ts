// Compaction: a summary of the conversation replaces it, in the same session, when it no longer fits.
import { isInstructionsMessage } from "./instructions.ts";
import type { Message } from "../provider/mod.ts";
import type { TokenEstimator } from "./tokens.ts";

/** The instruction of a summary request. */
export const COMPACT_PROMPT: string = [
  "The conversation is about to be replaced by your summary of it, to make room. Summarize it so that the work",
  "can continue from the summary alone. Keep: the user's requests and constraints, decisions made, files read",
  "or changed (with paths), commands run and their outcome, what has been done toward the latest request,",
  "open problems and the next steps. Be concise and factual. Do not call tools; answer with the summary only.",
].join(" ");

/** Tokens kept free for the summary itself when a summary request is sized. */
export const SUMMARY_MAX_TOKENS = 4_096;

/** The message that carries a summary into the compacted conversation. */
export function summaryMessage(summary: string): Message {
  return {
    role: "user",
    content:
      `<conversation-summary>\nThe earlier conversation, summarized to make room:\n${summary}\n</conversation-summary>`,
  };
}

function isPrompt(m: Message): boolean {
  return m.role === "user" && typeof m.content === "string" && !isInstructionsMessage(m) &&
    !m.content.startsWith("<system-reminder>") && !m.content.startsWith("<conversation-summary>");
}

/**
 * The conversation after a compaction: the system prompt and project instructions as they were (their bytes do
 * not change) and the summary. Between turns (the last message is an answer) that is all; at the start of a
 * turn the user's request follows the summary; in the middle of a turn (tool results after the request) the
 * request comes first and the summary, which tells what was done so far, after it.
 */
export function compactedView(messages: readonly Message[], summary: string): Message[] {
  const head = messages.slice(0, headLength(messages));
  const note = summaryMessage(summary);
  const lastMessage = messages.at(-1);
  if (!lastMessage || (lastMessage.role === "assistant" && !lastMessage.tool_calls)) return [...head, note];
  let last = -1;
  for (let i = messages.length - 1; i >= head.length; i--) {
    if (isPrompt(messages[i])) {
      last = i;
      break;
    }
  }
  if (last < 0) return [...head, note];
  return last === messages.length - 1 ? [...head, note, messages[last]] : [...head, messages[last], note];
}

/** How many messages open the conversation and survive a compaction: the system prompt, the instructions. */
export function headLength(messages: readonly Message[]): number {
  let n = messages[0]?.role === "system" ? 1 : 0;
  if (messages[n] && isInstructionsMessage(messages[n])) n++;
  return n;
}

const KEEP_HEAD = 1_200;
const KEEP_TAIL = 400;

function shorten(text: string): string {
  if (text.length <= KEEP_HEAD + KEEP_TAIL + 100) return text;
  const cut = text.length - KEEP_HEAD - KEEP_TAIL;
  return `${text.slice(0, KEEP_HEAD)}\n[... ${cut} characters left out of the summary request]\n${
    text.slice(-KEEP_TAIL)
  }`;
}

/**
 * The messages of a summary request that must fit `budget` tokens: unchanged when they do (so the request
 * extends the previous one and the provider's cache serves it); else long contents are shortened, oldest
 * first, and images dropped, until it fits. The structure (tool calls and their results) is kept.
 */
export function fitForSummary(
  messages: readonly Message[],
  opts: { budget: number; estimator: TokenEstimator },
): { messages: Message[]; shortened: boolean } {
  const out = [...messages];
  const fits = () => opts.estimator.estimate(out) <= opts.budget;
  if (fits()) return { messages: out, shortened: false };
  for (let i = 1; i < out.length && !fits(); i++) {
    const m = out[i];
    if (Array.isArray(m.tool_calls)) {
      out[i] = {
        ...m,
        tool_calls: (m.tool_calls as { function: { arguments: string } }[]).map((c) => {
          const args = c.function.arguments;
          const cut = shorten(args);
          return cut === args
            ? c
            : { ...c, function: { ...c.function, arguments: JSON.stringify({ navi_note: cut }) } };
        }),
      };
    }
    if (typeof m.content === "string") out[i] = { ...out[i], content: shorten(m.content) };
    else if (Array.isArray(m.content)) {
      out[i] = {
        ...out[i],
        content: (m.content as { type: string; text?: string }[]).map((p) =>
          p.type === "text"
            ? { ...p, text: shorten(p.text ?? "") }
            : { type: "text", text: "[image left out]" }
        ),
      };
    }
  }
  return { messages: out, shortened: true };
}
