/**
 * The agent loop of one conversation: a turn sends requests, assembles each streamed response, runs the
 * tool calls of a response as one batch (approval, audit, concurrency), and compacts the conversation when the
 * context keeper says it no longer fits.
 * @module
 */
export {
  Agent,
  type AgentEvents,
  type AgentOptions,
  type ResponseInfo,
  type SubagentEnd,
  type SubagentInfo,
  type TurnResult,
  type UserContent,
  type UserWait,
} from "./agent.ts";
export { CUT_MARKERS, type CutReason, ResponseAssembler } from "./stream.ts";
export { fileEffect, ToolCallRunner, type ToolCallRunnerOptions, type ToolEvents } from "./tool_calls.ts";
