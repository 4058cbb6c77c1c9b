// The vocabulary of Chat Completions that every part of navi shares: messages, tool calls, what a response keeps
// of its reasoning, and the pieces a streamed response arrives in.

/**
 * A Chat Completions message as navi stores it. Keys starting with `_` are navi's own (`_reasoning`): they are
 * never sent as they are; the provider layer turns them into what the provider that produced them needs back.
 */
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

/** Which provider and model produced a response, and through which API. */
export interface ResponseOrigin {
  /** The provider's name (a config.json `providers` key or a preset name). */
  provider: string;
  /** The model the request named. */
  model: string;
  /** `chat` (Chat Completions) or `responses` (OpenAI's Responses API). */
  api: "chat" | "responses";
}

/**
 * What an assistant message keeps of its response's reasoning (`message._reasoning`), for the user (the text)
 * and for the provider that produced it (sent back in its own form, to it only).
 */
export interface Reasoning extends ResponseOrigin {
  /** The reasoning text as it streamed (`reasoning_content`, `reasoning`, or summaries). */
  text?: string;
  /** The field the text arrived in, which is the field it goes back in. */
  field?: "reasoning_content" | "reasoning";
  /** OpenRouter's `reasoning_details`, joined by index, otherwise as they arrived (signatures kept). */
  details?: Record<string, unknown>[];
  /** Gemini's `extra_content` of each tool call (its thought signature), by call id. */
  callExtras?: Record<string, unknown>;
  /** Responses API: the reasoning items of the output, with their `encrypted_content`. */
  items?: Record<string, unknown>[];
}

/** One tool-call piece of a streamed delta. */
export interface ToolCallDelta {
  /** Which call of the response the piece belongs to (some providers omit it). */
  index?: number;
  /** The call id, on its first piece. */
  id?: string;
  /** The tool name (first piece) and a piece of the arguments. */
  function?: { name?: string; arguments?: string };
  /** Gemini's `extra_content` (`google.thought_signature`). */
  extra_content?: unknown;
}

/** The delta of one streamed choice, with the reasoning fields providers add to Chat Completions. */
export interface ChunkDelta {
  /** A piece of the answer text. */
  content?: string | null;
  /** Pieces of tool calls. */
  tool_calls?: ToolCallDelta[] | null;
  /** A piece of the reasoning (DeepSeek, Z.ai, llama.cpp). */
  reasoning_content?: string | null;
  /** A piece of the reasoning (OpenRouter, Groq, vLLM). */
  reasoning?: string | null;
  /** OpenRouter's structured reasoning pieces (text, summaries, encrypted signatures). */
  reasoning_details?: Record<string, unknown>[] | null;
  /** Responses API: complete reasoning items (navi's own field, set by the Responses reader). */
  reasoning_items?: Record<string, unknown>[] | null;
}

/** One streamed piece of a model response, in the Chat Completions chunk shape. */
export interface Chunk {
  /** The choices of the chunk; navi reads the first one. */
  choices?: { index?: number; delta?: ChunkDelta | null; finish_reason?: string | null }[] | null;
  /** The usage object, when the chunk carries one. */
  usage?: Record<string, unknown> | null;
  /** The model that answered. */
  model?: string;
  /** Anything else the provider sent. */
  [key: string]: unknown;
}
