/**
 * The app and its conversations: {@link NaviApp} holds what one navi process works with (registry, plugins,
 * MCP servers, secrets, sandbox); {@link bootApp} and {@link startConversation} are the one start-up sequence
 * every front (-p, the REPL, stream-json, ACP) runs.
 * @module
 */
export { type AppOptions, NaviApp, projectPluginDirs } from "./app.ts";
export {
  type AskTrust,
  loadProjectLayer,
  type ProjectLayer,
  readProjectLayer,
  type RunnableContributor,
  type TrustQuestion,
} from "./project_layer.ts";
export { type Conversation, type ConversationOptions, headText, openConversation } from "./conversation.ts";
export { expandSlash, type SlashExpansion } from "./slash_expand.ts";
export {
  bootApp,
  type BootOptions,
  startConversation,
  type StartOptions,
  type StartupLine,
} from "./startup.ts";
