/**
 * The app and its conversations: {@link NaviApp} holds what one navi process works with (registry, plugins,
 * MCP servers, secrets, sandbox); {@link bootApp} and {@link startConversation} are the one start-up sequence
 * every front (-p, the REPL, stream-json, ACP) runs.
 * @module
 */
export { type AppOptions, NaviApp } from "./app.ts";
export { type Conversation, type ConversationOptions, openConversation } from "./conversation.ts";
export {
  bootApp,
  type BootOptions,
  startConversation,
  type StartOptions,
  type StartupLine,
} from "./startup.ts";
