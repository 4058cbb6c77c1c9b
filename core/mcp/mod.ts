/**
 * navi's MCP layer: one manager per process owns a connection per configured server (stdio or Streamable
 * HTTP); each server's tools are bridged into the registry as `mcp__<server>__<tool>`. Loaded on demand.
 * @module
 */
export { McpManager, type McpManagerOptions, type McpServerState } from "./manager.ts";
export { type ConnectionOptions, type Elicit, McpConnection, type McpStatus } from "./connection.ts";
export { McpToolBridge } from "./bridge.ts";
export { type BreakerOpen, CircuitBreaker } from "./breaker.ts";
export { backoffDelay, DEFAULT_TIMING, type McpTiming, Reconnector } from "./reconnect.ts";
export { approvalFor, convertResult, describe, exposedName } from "./convert.ts";
export { STDIO_PASS_THROUGH, stdioEnvironment } from "./transport.ts";
export type { CallToolResult, McpTool } from "./sdk.ts";
