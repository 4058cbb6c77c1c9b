/**
 * ACP, navi for editors (`navi acp`): the agent side of the Agent Client Protocol over stdio, built on
 * `@agentclientprotocol/sdk`. Each ACP session is a navi app and conversation opened with the one start-up
 * sequence (workspace = the client's cwd, its MCP servers merged into config.json's); the agent's events
 * become `session/update`s, approvals `session/request_permission`, file tools `fs/*` and bash `terminal/*`
 * where the client offers them, and `session/load` replays a saved session. Loading this face loads the SDK,
 * so core/mod.ts does not re-export it: `navi acp` imports it when it runs.
 * @module
 */
export { type AcpOptions, serveAcp } from "./server.ts";
