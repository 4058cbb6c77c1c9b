// Every MCP SDK symbol navi uses, re-exported with type hints (Deno's checker treats bare subpath imports as any).
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult as SdkCallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

/** The result of an MCP tool call, as the server sends it. */
export type CallToolResult = SdkCallToolResult;
/** A tool as an MCP server lists it: name, description, input schema and annotations. */
export type McpTool = Tool;
