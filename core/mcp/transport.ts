import type { McpServerConfig } from "../config/mod.ts";
import { resolveEnvRef } from "../output/mod.ts";
import type { NaviOAuthProvider } from "./oauth_provider.ts";
import { StreamableHTTPClientTransport } from "./sdk.ts";
import { type SpawnOptions, StdioProcess } from "./stdio_process.ts";
import { ProcessTransport } from "./stdio_transport.ts";

/** Whether a server's configured headers carry their own Authorization (then navi's OAuth stays out). */
export function hasStaticAuthorization(config: McpServerConfig): boolean {
  return Object.keys(config.headers ?? {}).some((k) => k.toLowerCase() === "authorization");
}

/** The Streamable HTTP transport of a server: `$VAR` headers resolved, OAuth through `auth` when given. */
export function httpTransport(
  config: McpServerConfig,
  opts: { env: { get(key: string): string | undefined }; auth?: NaviOAuthProvider },
): StreamableHTTPClientTransport {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.headers ?? {})) {
    const value = resolveEnvRef(v, opts.env);
    if (value === undefined) throw new Error(`header ${k} refers to ${v}, which is not set`);
    headers[k] = value;
  }
  return new StreamableHTTPClientTransport(new URL(config.url!), {
    requestInit: { headers },
    ...(opts.auth ? { authProvider: opts.auth, fetch: opts.auth.fetch } : {}),
  });
}

/**
 * The stdio transport of a server: over the process started early for it (when it was started for exactly
 * this config), else over a new one. Its stderr goes to `logs/mcp-<name>.log`.
 */
export function stdioTransport(
  name: string,
  config: McpServerConfig,
  opts: SpawnOptions & { early?: StdioProcess },
): ProcessTransport {
  let proc = opts.early;
  if (proc && !proc.matches(config, opts)) {
    void proc.stop();
    proc = undefined;
  }
  return new ProcessTransport(proc ?? StdioProcess.spawn(name, config, opts));
}
