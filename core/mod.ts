/**
 * navi's engine, face of faces: each subsystem folder of `core/` has its own `mod.ts`, and this module
 * re-exports them (and the root files `home.ts` and `version.ts`). `tools/` import the engine from here. No
 * face loads an SDK it does not need yet (the MCP SDK loads when a server starts, the openai SDK with the first
 * request); the terminal front lives in `./cli/` and only `main.ts` imports it.
 * @module
 */
export * from "./agent/mod.ts";
export * from "./agents/mod.ts";
export * from "./app/mod.ts";
export * from "./approval/mod.ts";
export * from "./checkpoints/mod.ts";
export * from "./clock/mod.ts";
export * from "./config/mod.ts";
export * from "./context/mod.ts";
export * from "./output/mod.ts";
export * from "./plugins/mod.ts";
export * from "./provider/mod.ts";
export * from "./sandbox/mod.ts";
export * from "./session/mod.ts";
export * from "./shells/mod.ts";
export * from "./tool/mod.ts";
export * from "./toollist/mod.ts";
export * from "./trace/mod.ts";
export * from "./workspace/mod.ts";
export * from "./mcp/mod.ts";
export * from "./mentions/mod.ts";
export * from "./project/mod.ts";
export * from "./extensions/mod.ts";
export * from "./hooks/mod.ts";
export { configPath, naviHome } from "./home.ts";
export { VERSION } from "./version.ts";
