// Every MCP SDK symbol navi uses, re-exported with type hints (Deno's checker treats bare subpath imports as any).
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  type CallToolResult,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
