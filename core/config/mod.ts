/**
 * config.json: its schema (zod, with written-out types kept equal at compile time), loading with one-line
 * errors naming the file and field, and edits through `updateConfigFile`.
 * @module
 */
export {
  ConfigError,
  loadConfig,
  parseConfig,
  parsePermissions,
  SERVER_NAME_RULE,
  updateConfigFile,
  validServerName,
} from "./config.ts";
export {
  type AgentSettings,
  APPROVAL_MODES,
  type ApprovalMode,
  type ApprovalSettings,
  type CheckpointSettings,
  type CompatSettings,
  type Config,
  DEFER_MODES,
  type DeferMode,
  type McpOAuthConfig,
  type McpServerConfig,
  type ModelPriceSettings,
  type ModelSettings,
  type NotifySettings,
  type PermissionSettings,
  type PluginSettings,
  type ProviderSettings,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type RetrySettings,
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxSettings,
  type ToolSettings,
} from "./types.ts";
