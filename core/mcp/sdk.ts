// Every MCP SDK symbol navi uses, re-exported with type hints (Deno's checker treats bare subpath imports as any).
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/validation/ajv"
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
export {
  discoverOAuthServerInfo,
  refreshAuthorization,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
export { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CallToolResult as SdkCallToolResult,
  GetPromptResult as SdkGetPromptResult,
  JSONRPCMessage as SdkJSONRPCMessage,
  Progress as SdkProgress,
  Prompt,
  ReadResourceResult as SdkReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The result of an MCP tool call, as the server sends it. */
export type CallToolResult = SdkCallToolResult;
/** A tool as an MCP server lists it: name, description, input schema and annotations. */
export type McpTool = Tool;
/** A resource as an MCP server lists it. */
export type McpResource = Resource;
/** A resource template (an RFC 6570 URI template) as an MCP server lists it. */
export type McpResourceTemplate = ResourceTemplate;
/** A prompt as an MCP server lists it: name, description, arguments. */
export type McpPrompt = Prompt;
/** The answer to prompts/get. */
export type GetPromptResult = SdkGetPromptResult;
/** The answer to resources/read. */
export type ReadResourceResult = SdkReadResourceResult;
/** A progress notification's payload. */
export type Progress = SdkProgress;
/** One JSON-RPC message. */
export type JSONRPCMessage = SdkJSONRPCMessage;
/** An MCP transport (what `Client.connect` takes). */
export type McpTransport = Transport;
/** What the SDK's OAuth flow asks of a client. */
export type OAuthProvider = OAuthClientProvider;
/** OAuth tokens as a token endpoint answers them. */
export type Tokens = OAuthTokens;
/** Client registration data (pre-registered or dynamic). */
export type ClientInformation = OAuthClientInformationMixed;
/** The client metadata sent at dynamic registration. */
export type ClientMetadata = OAuthClientMetadata;
/** Discovery results the SDK lets a provider keep. */
export type DiscoveryState = OAuthDiscoveryState;
