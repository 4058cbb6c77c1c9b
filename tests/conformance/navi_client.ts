// Conformance adapter: navi's own MCP layer (McpManager) as the client under test.
// The suite appends the scenario server's URL as the last argument, sets MCP_CONFORMANCE_SCENARIO and, for
// scenarios with pre-registered clients, MCP_CONFORMANCE_CONTEXT (JSON with client_id and client_secret).
// The browser step of an OAuth login is what a user's browser would do: load the authorization URL and follow
// its redirect back to navi's loopback listener (the scenarios' authorization servers approve at once).
import { type Elicit, type OpenUrl } from "../../core/mcp/mod.ts";
import { McpManager } from "../../core/mcp/manager.ts";
import { ToolRegistry } from "../../core/mod.ts";
import { VERSION } from "../../core/version.ts";

const url = Deno.args.at(-1);
if (!url) {
  console.error("usage: navi_client.ts <server url>");
  Deno.exit(2);
}

/** Accept with every default the schema declares: what a user who presses Enter at each field gets. */
const acceptDefaults: Elicit = ({ schema }) => {
  const props = (schema as { properties?: Record<string, { default?: unknown }> })?.properties ?? {};
  const content: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    if (prop.default !== undefined) content[key] = prop.default;
  }
  return Promise.resolve({ action: "accept", content });
};

const ARGS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };

const browser: OpenUrl = async (authorizationUrl) => {
  const res = await fetch(authorizationUrl);
  await res.body?.cancel();
};

const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}") as {
  client_id?: string;
  client_secret?: string;
};
// The client ID metadata document navi would publish; used where the authorization server accepts one.
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const home = await Deno.makeTempDir({ prefix: "navi-conformance-" });
const registry = new ToolRegistry();
const manager = new McpManager(
  registry,
  {
    conformance: {
      url,
      connect_timeout_s: 10,
      call_timeout_s: 20,
      oauth: {
        client_metadata_url: CLIENT_METADATA_URL,
        ...(context.client_id ? { client_id: context.client_id } : {}),
        ...(context.client_secret ? { client_secret: context.client_secret } : {}),
      },
    },
  },
  {
    home,
    workspace: Deno.cwd(),
    version: VERSION,
    env: Deno.env,
    elicit: acceptDefaults,
    openUrl: browser,
    loginTimeoutMs: 10_000,
    timing: { maxReconnects: 0 },
  },
);
await manager.start();
const state = manager.states()[0];
let failed = state.status !== "connected";
if (failed) console.error(`not connected: ${state.error}`);
const ctx = {
  workspace: Deno.cwd(),
  signal: new AbortController().signal,
  confirm: () => Promise.resolve(false),
};
for (const tool of registry.list()) {
  const original = manager.get("conformance")!.tools.get(tool.name)!;
  const result = await registry.invoke(tool.name, ARGS[original] ?? {}, ctx);
  console.log(`${original}: ${JSON.stringify(result)}`);
  if (!result.ok) failed = true;
}
await manager.close();
await Deno.remove(home, { recursive: true });
Deno.exit(failed ? 1 : 0);
