// What a Chat Completions request carries: navi's stored messages in the form the provider is to receive them
// (reasoning back to the provider that produced it, navi's own keys removed), and Anthropic cache breakpoints.
import type { Message, Reasoning, ResponseOrigin } from "./messages.ts";

/** Whether the reasoning kept on a message came from `target` (the same provider, model and API). */
export function sameOrigin(reasoning: Reasoning | undefined, target: ResponseOrigin): reasoning is Reasoning {
  return !!reasoning && reasoning.provider === target.provider && reasoning.model === target.model &&
    reasoning.api === target.api;
}

/** The message without navi's own keys (those starting with `_`). */
export function withoutNaviKeys(message: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) if (!key.startsWith("_")) out[key] = value;
  return out;
}

/**
 * The messages as a Chat Completions request to `target` sends them. An assistant message with tool calls
 * that `target` itself produced gets its reasoning back in the provider's own form: OpenRouter's
 * `reasoning_details` unchanged, else the text in the field it arrived in (`reasoning_content` for DeepSeek,
 * Z.ai, llama.cpp; `reasoning`), and Gemini's `extra_content` on each tool call unchanged. Other messages, and
 * everything sent to another provider or model, carry none of it (strict servers reject unknown fields).
 * The result depends only on the messages and `target`, so the bytes of a request's prefix stay the same.
 */
export function chatMessages(
  messages: readonly Message[],
  target: ResponseOrigin,
): Record<string, unknown>[] {
  return messages.map((m) => {
    const out = withoutNaviKeys(m);
    const r = m._reasoning as Reasoning | undefined;
    const calls = m.tool_calls as Record<string, unknown>[] | undefined;
    if (m.role !== "assistant" || !calls?.length || !sameOrigin(r, target)) return out;
    if (r.details?.length) out.reasoning_details = r.details;
    else if (r.field) out[r.field] = r.text ?? "";
    const extras = r.callExtras;
    if (extras) {
      out.tool_calls = calls.map((c) =>
        extras[String(c.id)] === undefined ? c : { ...c, extra_content: extras[String(c.id)] }
      );
    }
    return out;
  });
}

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Anthropic prompt-cache breakpoints (`cache_control`) on a Chat Completions request, at most 4: the last
 * tool, the system prompt, the message after it (the project instructions, or the first prompt) and the
 * newest message. Every text content is sent as a list of text parts, marked or not, so a message reads the
 * same up to its mark whether it is the newest or not: the part of a request before its last mark is a byte
 * prefix of the next request, which the provider then reads from its cache.
 */
export function cacheBreakpoints(
  tools: readonly Record<string, unknown>[],
  messages: readonly Record<string, unknown>[],
): { tools: Record<string, unknown>[]; messages: Record<string, unknown>[] } {
  const marked = new Set<number>();
  if (messages[0]?.role === "system") marked.add(0);
  if (messages.length > 1 && messages[0]?.role === "system" && messages[1]?.role === "user") marked.add(1);
  for (let i = messages.length - 1; i >= 0; i--) {
    if (markable(messages[i])) {
      marked.add(i);
      break;
    }
  }
  return {
    tools: tools.map((t, i) => (i === tools.length - 1 ? { ...t, cache_control: EPHEMERAL } : t)),
    messages: messages.map((m, i) => asParts(m, marked.has(i) && markable(m))),
  };
}

function markable(m: Record<string, unknown>): boolean {
  return typeof m.content === "string" || (Array.isArray(m.content) && m.content.length > 0);
}

function asParts(m: Record<string, unknown>, mark: boolean): Record<string, unknown> {
  const content = m.content;
  let parts: Record<string, unknown>[];
  if (typeof content === "string") parts = [{ type: "text", text: content }];
  else if (Array.isArray(content)) parts = [...content] as Record<string, unknown>[];
  else return m;
  if (mark && parts.length) {
    parts[parts.length - 1] = { ...parts[parts.length - 1], cache_control: EPHEMERAL };
  }
  return { ...m, content: parts };
}
