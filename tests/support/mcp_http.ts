import { buildServer } from "./mcp_test_server.ts";
import { WebStandardStreamableHTTPServerTransport } from "./mcp_sdk_server.ts";

/** A Streamable HTTP MCP server on 127.0.0.1, one transport per session; records request headers. */
export function startMcpHttp() {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const headers: Headers[] = [];
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      headers.push(req.headers);
      const id = req.headers.get("mcp-session-id");
      let transport = id ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          onsessioninitialized: (sid) => void sessions.set(sid, transport!),
        });
        await buildServer("http").connect(transport);
      }
      return await transport.handleRequest(req);
    },
  );
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/mcp`,
    headers,
    async close() {
      for (const t of sessions.values()) await t.close();
      controller.abort();
      await server.finished;
    },
  };
}
