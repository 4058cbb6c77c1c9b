/**
 * What a tool is: its definition (`defineTool` with zod parameters and an approval class), the uniform
 * `{ok, ...}` results with truncation, per-call timeouts, and the registry every tool lives in.
 * @module
 */
export { defineRawTool, defineTool, parseArguments, zodInputSchema, zodValidator } from "./define.ts";
export { type OpenAITool, RegistryError, ToolRegistry } from "./registry.ts";
export {
  errorMessage,
  MAX_IMAGE_BYTES,
  normalizeResult,
  toModelContent,
  ToolError,
  truncateResult,
} from "./result.ts";
export {
  APPROVAL_CLASSES,
  type ApprovalClass,
  type BackgroundShells,
  type CommandSandbox,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TIMEOUT_MS,
  type LoadedSkill,
  type SandboxedCommand,
  type SkillLoader,
  type Tool,
  TOOL_NAME_PATTERN,
  type ToolContext,
  type ToolPreview,
  type ToolProgress,
  type ToolResult,
  type ToolSource,
} from "./types.ts";
export {
  type ShellReport,
  type ShellSpec,
  type ShellStatus,
  type ShellSummary,
  TODO_STATUSES,
  type TodoBoard,
  type TodoItem,
  type TodoStatus,
} from "./types.ts";
export type { ConfirmRequest, ParametersSchema, RawToolSpec, ToolSpec } from "./types.ts";
export type { ToolOptions } from "./types.ts";
