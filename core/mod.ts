/**
 * navi's engine: tool definitions and results, the registry and the tool pool, the agent loop, sessions,
 * approval, config, the provider and LLM client, secrets, the workspace and the plugin loader. MCP has its
 * own face in `./mcp/mod.ts` (loaded on demand). The terminal front lives in `./cli/` and only it may
 * import from there.
 * @module
 */
export * from "./tool/types.ts";
export { defineRawTool, defineTool, parseArguments } from "./tool/define.ts";
export {
  errorMessage,
  MAX_IMAGE_BYTES,
  normalizeResult,
  toModelContent,
  ToolError,
  truncateResult,
} from "./tool/result.ts";
export { type OpenAITool, RegistryError, ToolRegistry } from "./tool/registry.ts";
export {
  assemble,
  type Evolution,
  evolve,
  featureDisabled,
  fnv1a,
  type PoolFilter,
  ToolPool,
} from "./toollist/pool.ts";
export { type ToolChanges, toolsReminder } from "./toollist/reminder.ts";
export {
  type DeferralOptions,
  type DeferralSettings,
  deferralSettings,
  type DeferredState,
  MAX_TOOLS,
  ToolDeferral,
  type ToolStep,
} from "./toollist/deferral.ts";
export { CALL_TOOL, FIND_TOOLS, type ToolMatch, ToolSearch, words } from "./toollist/search.ts";
export {
  type CacheBreak,
  CacheStats,
  type CacheSummary,
  type RequestParts,
  type RequestRecord,
  toolChangeLabel,
} from "./toollist/cache_stats.ts";
export { displayPath, isInside, resolveInWorkspace } from "./workspace.ts";
export { globToRegExp, looksBinary, walkFiles } from "./files.ts";
export {
  Agent,
  type AgentEvents,
  type AgentOptions,
  type ToolCall,
  type TurnResult,
  type Usage,
} from "./agent/agent.ts";
export {
  type AuditRecord,
  type LoadedSession,
  type Message,
  type RewriteRecord,
  Session,
  SessionError,
  type SessionMeta,
  type SessionOptions,
} from "./session/session.ts";
export { listSessions, newestSessionIn, resolveSessionId, type SessionSummary } from "./session/list.ts";
export {
  type Answer,
  ApprovalPolicy,
  type ApprovalQuestion,
  type AskUser,
  commandSegments,
  type Decision,
  type Grant,
  parseRule,
  type Reply,
  type Rule,
  suggestPrefix,
  summarize,
} from "./approval/policy.ts";
export { type CommandPattern, matchesCommand, parseCommandPattern } from "./approval/command_rule.ts";
export {
  APPROVAL_MODES,
  type ApprovalMode,
  type ApprovalSettings,
  type Config,
  ConfigError,
  configPath,
  DEFER_MODES,
  type DeferMode,
  loadConfig,
  type McpOAuthConfig,
  type McpServerConfig,
  type ModelPriceSettings,
  naviHome,
  parseConfig,
  type PluginSettings,
  type ProviderSettings,
  type RetrySettings,
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxSettings,
  SERVER_NAME_RULE,
  type ToolSettings,
  updateConfigFile,
  validServerName,
} from "./config.ts";
export { type ProviderChoice, ProviderError, resolveProvider } from "./provider/choice.ts";
export {
  ApiError,
  type ChatFn,
  type ChatOptions,
  type ChatRequest,
  type Chunk,
  isAbort,
  LlmClient,
  preloadSdk,
  type RetryInfo,
  type RetryPolicy,
} from "./provider/llm.ts";
export {
  type Env,
  ENV_REF,
  RedactingStream,
  type Redactor,
  resolveEnvRef,
  Secrets,
} from "./output/secrets.ts";
export {
  type PluginEvent,
  PluginLoader,
  type PluginLoaderOptions,
  type PluginReport,
} from "./plugins/loader.ts";
export { discoverPlugins, pluginsDir } from "./plugins/source.ts";
export {
  DEFAULT_PERMISSIONS,
  describePermissions,
  type PermissionContext,
  type WorkerPermissions,
  workerPermissions,
} from "./plugins/permissions.ts";
export type {
  NaviPluginApi,
  PermissionGrant,
  PluginPermissions,
  ToolDefinition as PluginToolDefinition,
} from "./plugins/api.ts";
export { type Conversation, type ConversationOptions, openConversation } from "./app/conversation.ts";
export { type AppOptions, NaviApp } from "./app/app.ts";
export { systemPrompt } from "./context/prompt.ts";
export {
  COMPACT_PROMPT,
  compactedView,
  fitForSummary,
  headLength,
  summaryMessage,
} from "./context/compaction.ts";
export {
  type CompactionInfo,
  ContextKeeper,
  type ContextKeeperOptions,
  type ContextView,
} from "./context/keeper.ts";
export {
  FALLBACK_LIMITS,
  type ModelLimits,
  modelLimits,
  type ModelSettings,
  promptBudget,
} from "./context/window.ts";
export {
  findInstructionFiles,
  gitRoot,
  type InstructionFile,
  type Instructions,
  INSTRUCTIONS_CAP_BYTES,
  instructionsText,
  isInstructionsMessage,
  loadInstructions,
} from "./context/instructions.ts";
export { type BytesOf, type ContextPart, TokenEstimator } from "./context/tokens.ts";
export { CUT_MARKERS, type CutReason, emptyUsage, ResponseAssembler } from "./agent/stream.ts";
export { addUsage, costOf, type ModelPrice, sessionCost, totalUsage } from "./provider/usage.ts";
export {
  type RoutedCall,
  ToolCallRunner,
  type ToolCallRunnerOptions,
  type ToolEvents,
} from "./agent/tool_calls.ts";
export { VERSION } from "./version.ts";
export type { Elicit, McpServerState } from "./mcp/mod.ts";
export {
  Sandbox,
  type SandboxOptions,
  type SandboxState,
  type SandboxStatus,
  type SelfTestCheck,
} from "./sandbox/mod.ts";
export type { Catalog } from "./mcp/catalog.ts";
export type { OpenUrl } from "./mcp/oauth_provider.ts";
export { type ExpandedMessage, mentionCandidates } from "./mcp/mentions.ts";
export { parsePromptArgs, type PromptArgument, type PromptCommand, promptUsage } from "./mcp/prompts.ts";
