/**
 * What fits in the model's window: project instructions (AGENTS.md), model windows, token estimates, the
 * compaction policy (when, and what a compacted conversation keeps) and the system prompt.
 * @module
 */
export { COMPACT_PROMPT, compactedView, fitForSummary, headLength, summaryMessage } from "./compaction.ts";
export {
  findInstructionFiles,
  type InstructionFile,
  type Instructions,
  INSTRUCTIONS_CAP_BYTES,
  instructionsText,
  isInstructionsMessage,
  loadInstructions,
} from "./instructions.ts";
export { type CompactionInfo, ContextKeeper, type ContextKeeperOptions, type ContextView } from "./keeper.ts";
export { ContextLimitError } from "./limits.ts";
export { systemPrompt } from "./prompt.ts";
export { type BytesOf, type ContextPart, TokenEstimator } from "./tokens.ts";
export { FALLBACK_LIMITS, type ModelLimits, modelLimits, promptBudget } from "./window.ts";
