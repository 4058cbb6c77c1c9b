import { join } from "node:path";
import type { McpServerConfig } from "../config.ts";
import { resolveEnvRef } from "../secrets.ts";
import { getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport } from "./sdk.ts";

/**
 * The SDK transport for one configured server: Streamable HTTP with `$VAR` headers resolved, or stdio with
 * the SDK's default environment plus the configured one and stderr appended to `logs/mcp-<name>.log`.
 */
export function createTransport(
  name: string,
  config: McpServerConfig,
  opts: { home: string; workspace: string; env: { get(key: string): string | undefined } },
): {
  transport: StdioClientTransport | StreamableHTTPClientTransport;
  pid?: () => number | null | undefined;
} {
  if (config.url) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(config.headers ?? {})) {
      const value = resolveEnvRef(v, opts.env);
      if (value === undefined) throw new Error(`header ${k} refers to ${v}, which is not set`);
      headers[k] = value;
    }
    return {
      transport: new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers } }),
    };
  }
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [k, v] of Object.entries(config.env ?? {})) {
    const value = resolveEnvRef(v, opts.env);
    if (value !== undefined) env[k] = value;
  }
  const transport = new StdioClientTransport({
    command: config.command!,
    args: config.args ?? [],
    env,
    cwd: config.cwd ?? opts.workspace,
    stderr: "pipe",
  });
  const logDir = join(opts.home, "logs");
  Deno.mkdirSync(logDir, { recursive: true });
  const log = join(logDir, `mcp-${name}.log`);
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    try {
      Deno.writeFileSync(log, chunk, { append: true });
    } catch { /* logging must never take a server down */ }
  });
  return { transport, pid: () => transport.pid };
}
