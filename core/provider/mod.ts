/**
 * The model provider: choosing provider and model, the Chat Completions client (SSE read by navi, retries
 * with retry-after), usage and prices, and the wire vocabulary every part shares (messages, tool calls).
 * @module
 */
export { type ProviderChoice, ProviderError, resolveProvider } from "./choice.ts";
export {
  ApiError,
  type ChatFn,
  type ChatOptions,
  type ChatRequest,
  type Chunk,
  isAbort,
  isContextLengthError,
  LlmClient,
  preloadSdk,
} from "./llm.ts";
export type { Message, ToolCall } from "./messages.ts";
export { abortError, type RetryInfo, type RetryPolicy } from "./retry.ts";
export {
  addUsage,
  costOf,
  emptyUsage,
  type ModelPrice,
  sessionCost,
  totalUsage,
  type Usage,
} from "./usage.ts";
