import { configPath } from "../home.ts";
import type { Config, McpServerConfig } from "../config/mod.ts";
import { Secrets } from "../output/mod.ts";
import { type SpawnOptions, StdioProcess } from "./stdio_process.ts";
import type { StartupTrace } from "../trace/mod.ts";

/**
 * Start the enabled stdio servers of `$NAVI_HOME/config.json` right away, before navi loads anything else
 * (the config schema, plugins, the MCP SDK, the openai SDK): a server's own start-up then overlaps navi's.
 * The config is only pre-read here (plain JSON); the manager hands each process to its connection when the
 * validated config still describes it exactly, and ends it otherwise. Their stderr is redacted with the
 * secrets this config names (the app's own are built from the same file). Never throws: a server that cannot
 * be started here is started (and its error reported) by the normal connect.
 */
export function prespawnStdioServers(
  opts: SpawnOptions & { trace?: StartupTrace },
): Map<string, StdioProcess> {
  const started = new Map<string, StdioProcess>();
  let servers: Record<string, unknown>;
  let secrets: Secrets;
  try {
    const raw = JSON.parse(Deno.readTextFileSync(configPath(opts.home)));
    opts.trace?.mark("config read");
    servers = raw?.mcp_servers;
    if (!servers || typeof servers !== "object") return started;
    secrets = opts.secrets instanceof Secrets ? opts.secrets : Secrets.fromConfig(raw as Config, opts.env);
  } catch {
    return started;
  }
  for (const [name, value] of Object.entries(servers)) {
    const config = value as McpServerConfig;
    if (!config || typeof config.command !== "string" || config.url !== undefined) continue;
    if (config.enabled === false || !/^[a-zA-Z0-9_-]+$/.test(name) || name.includes("__")) continue;
    if (config.args !== undefined && !isStrings(config.args)) continue;
    if (config.env !== undefined && !isStringMap(config.env)) continue;
    if (config.cwd !== undefined && typeof config.cwd !== "string") continue;
    try {
      started.set(name, StdioProcess.spawn(name, config, { ...opts, secrets }));
    } catch { /* the connect reports it */ }
  }
  if (started.size) opts.trace?.mark("servers spawned");
  return started;
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

function isStringMap(v: unknown): v is Record<string, string> {
  return !!v && typeof v === "object" && !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === "string");
}
