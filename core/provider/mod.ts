/**
 * The model provider: choosing provider and model (config.json entries and the presets), the client (Chat
 * Completions or the Responses API, SSE read by navi, retries with retry-after), what each request carries per
 * provider (reasoning sent back, cache breakpoints), usage and prices, and the wire vocabulary every part
 * shares (messages, tool calls, stream chunks).
 * @module
 */
export { type ProviderChoice, ProviderError, type ProviderOverrides, resolveProvider } from "./choice.ts";
export {
  ApiError,
  chatBody,
  type ChatFn,
  type ChatOptions,
  type ChatRequest,
  isAbort,
  isContextLengthError,
  LlmClient,
  preloadSdk,
  responsesBody,
} from "./llm.ts";
export type {
  Chunk,
  ChunkDelta,
  Message,
  Reasoning,
  ResponseOrigin,
  ToolCall,
  ToolCallDelta,
} from "./messages.ts";
export { presetKeyRefs, presetNamed, PRESETS, type ProviderPreset } from "./presets.ts";
export { abortError, type RetryInfo, type RetryPolicy } from "./retry.ts";
export {
  addUsage,
  costOf,
  emptyUsage,
  type ModelPrice,
  normalizeUsage,
  ResponseUsage,
  sessionCost,
  totalUsage,
  type Usage,
} from "./usage.ts";
