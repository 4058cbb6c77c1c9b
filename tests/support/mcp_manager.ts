// A McpManager over the test MCP server for in-process tests, disposed with its temporary home.
import { join } from "node:path";
import { type McpServerConfig, type ToolContext, ToolRegistry } from "../../core/mod.ts";
import { McpManager, type McpManagerOptions } from "../../core/mcp/manager.ts";
import { ROOT, tempDir, toolContext } from "../helpers.ts";

const SERVER = join(ROOT, "tests", "support", "mcp_test_server.ts");

/** The test server over stdio; `serverArgs` go after the mode (`tool=<name>`, `gate=<file>`). */
export function stdioServer(
  extra: Partial<McpServerConfig> = {},
  serverArgs: string[] = [],
): McpServerConfig {
  return { command: Deno.execPath(), args: ["run", "-A", SERVER, "stdio", ...serverArgs], ...extra };
}

/** Sanitizers off: the servers' processes and streams outlive a test's last await by design. */
export const MCP_TEST = { sanitizeOps: false, sanitizeResources: false };

/** A manager over `servers` with short reconnect timing, started unless `start` is false. */
export async function testManager(
  servers: Record<string, McpServerConfig>,
  opts: Partial<McpManagerOptions> = {},
  { start = true } = {},
) {
  const home = await tempDir();
  const registry = new ToolRegistry();
  const m = new McpManager(registry, servers, {
    home: home.path,
    workspace: home.path,
    version: "test",
    env: Deno.env,
    timing: { reconnectBaseMs: 50, reconnectMaxMs: 200, breakerCooldownMs: 400 },
    ...opts,
  });
  if (start) await m.start();
  return {
    m,
    registry,
    home: home.path,
    call: (name: string, args: Record<string, unknown> = {}, ctx: Partial<ToolContext> = {}) =>
      registry.invoke(name, JSON.stringify(args), { ...toolContext(home.path), ...ctx }),
    async [Symbol.asyncDispose]() {
      await m.close();
      await home[Symbol.asyncDispose]();
    },
  };
}
