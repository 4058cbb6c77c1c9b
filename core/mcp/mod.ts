/**
 * navi's MCP layer: one manager per process owns a connection per configured server (stdio or Streamable
 * HTTP, with OAuth); each server's tools are bridged into the registry as `mcp__<server>__<tool>`, its
 * resources and prompts are listed on demand. Loaded on demand.
 * @module
 */
export { McpManager, type McpManagerOptions, type McpServerState } from "./manager.ts";
export { type ConnectionOptions, type Elicit, McpConnection, type McpStatus } from "./connection.ts";
export { type McpCall, type McpCallOptions, McpToolBridge } from "./bridge.ts";
export { NameClaims } from "./names.ts";
export { ListRefresher } from "./list_refresh.ts";
export { type Catalog, EMPTY_CATALOG } from "./catalog.ts";
export { type BreakerOpen, CircuitBreaker } from "./breaker.ts";
export { backoffDelay, DEFAULT_TIMING, type McpTiming, Reconnector } from "./reconnect.ts";
export { approvalFor, base64Bytes, convertResult, describe, exposedName } from "./convert.ts";
export { MAX_IMAGE_BYTES } from "../tool/result.ts";
export { hasStaticAuthorization, STDIO_PASS_THROUGH, stdioEnvironment } from "./transport.ts";
export { SDK_DEFAULT_ENV } from "./stdio_env.ts";
export { serverLogPath, type SpawnOptions, StdioProcess } from "./stdio_process.ts";
export { ProcessTransport } from "./stdio_transport.ts";
export { prespawnStdioServers } from "./prespawn.ts";
export {
  LoginRequiredError,
  NaviOAuthProvider,
  type OAuthProviderOptions,
  type OpenUrl,
} from "./oauth_provider.ts";
export { LoginError, LoopbackRedirect } from "./oauth_redirect.ts";
export { authDir, type StoredAuth, type StoredTokens, TokenStore } from "./oauth_store.ts";
export { type RefreshOptions, type RefreshOutcome, refreshTokens } from "./oauth_refresh.ts";
export type {
  CallToolResult,
  ClientInformation,
  ClientMetadata,
  DiscoveryState,
  GetPromptResult,
  JSONRPCMessage,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpTransport,
  OAuthProvider,
  ReadResourceResult,
  Tokens,
} from "./sdk.ts";
export {
  type ExpandedMessage,
  expandMentions,
  findMentions,
  MAX_RESOURCE_CHARS,
  type Mention,
  mentionCandidates,
  resourceText,
} from "./mentions.ts";
export {
  parsePromptArgs,
  type PromptArgument,
  type PromptCommand,
  promptCommands,
  promptText,
  promptUsage,
} from "./prompts.ts";
