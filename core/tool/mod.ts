/**
 * What a tool is: its definition (`defineTool` with zod parameters and an approval class), the uniform
 * `{ok, ...}` results with truncation, per-call timeouts, the registry every tool lives in, and the file
 * access and command runner a front may route file tools and `bash` through.
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
  type CommandOutcome,
  type CommandRun,
  type CommandRunner,
  type CommandSandbox,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TIMEOUT_MS,
  type FileAccess,
  type LoadedSkill,
  type SandboxedCommand,
  type SkillLoader,
  type SubagentLauncher,
  type SubagentRequest,
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
export { LOCAL_FILES, readTextFile, writeTextFile } from "./files.ts";
