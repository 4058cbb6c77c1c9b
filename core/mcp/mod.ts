/**
 * navi's MCP layer, as the rest of navi uses it: {@link McpService} owns every configured server of an app
 * (stdio or Streamable HTTP, with OAuth): the early start of stdio servers, connections, catalogs, login,
 * reload and the `@server:uri` mention provider. Each server's tools are bridged into the registry as
 * `mcp__<server>__<tool>`. This face loads no SDK: connections are loaded when a server is started.
 * @module
 */
export { type EarlyServers, McpService, type McpServiceOptions } from "./service.ts";
export type { McpServerState } from "./manager.ts";
export type { Elicit } from "./client.ts";
export type { Catalog } from "./catalog.ts";
export type { OpenUrl } from "./oauth_provider.ts";
export type { SpawnOptions, StdioProcess } from "./stdio_process.ts";
export { prespawnStdioServers } from "./prespawn.ts";
export type { McpPrompt, McpResource, McpResourceTemplate, ReadResourceResult } from "./sdk.ts";
export { MAX_RESOURCE_CHARS, mentionCandidates, resourceText } from "./mentions.ts";
export { parsePromptArgs, type PromptArgument, type PromptCommand, promptUsage } from "./prompts.ts";
