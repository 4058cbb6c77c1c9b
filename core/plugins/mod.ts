/**
 * Plugins: discovery in `$NAVI_HOME/plugins`, compilation of TypeScript plugins, each plugin run in its own
 * Deno worker with the permissions it declares (the worker side is `./worker/`), cached definitions, and the
 * plugin API (`./api.ts`, from which plugins/navi.d.ts is generated); plugin bundles (a folder with commands,
 * skills, agents, hooks and MCP servers beside its tools, Claude Code's plugin layout included).
 * @module
 */
export type {
  HookDecision as PluginHookDecision,
  HookEventName as PluginHookEvent,
  HookHandler as PluginHookHandler,
  HookInput as PluginHookInput,
  NaviPluginApi,
  ParametersSchema as PluginParametersSchema,
  PermissionGrant,
  PluginPermissions,
  ToolContext as PluginToolContext,
  ToolDefinition as PluginToolDefinition,
  ToolResult as PluginToolResult,
} from "./api.ts";
export {
  type PluginEvent,
  type PluginHookSpec,
  PluginLoader,
  type PluginLoaderOptions,
  type PluginReport,
} from "./loader.ts";
export {
  DEFAULT_PERMISSIONS,
  describePermissions,
  type PermissionContext,
  type WorkerPermissions,
  workerPermissions,
} from "./permissions.ts";
export { discoverPlugins, pluginsDir } from "./source.ts";
export { expandPluginRoot, findBundles, type PluginBundle, readBundle } from "./bundles.ts";
