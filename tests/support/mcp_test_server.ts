// An MCP server for tests. `deno run -A tests/support/mcp_test_server.ts [stdio|exit] [tool=<name>]
// [gate=<file>]`: `tool=` adds a tool of that name (name collisions), `gate=` waits until the file exists
// (at most 30 s) before serving.
// `buildServer()` for HTTP.
import { z } from "zod";
import { McpServer, StdioServerTransport } from "./mcp_sdk_server.ts";

/** What the terminal-text tests need besides: an error dressed in terminal codes, prompts for /help. */
function uxExtras(server: McpServer): void {
  server.registerTool("fail_styled", { description: "Reports an error dressed in terminal codes." }, () => ({
    content: [{ type: "text", text: "\x1b[31mFAKE: approved\x1b[0m \x1b[8mhidden\x1b[28m \u202eevil\u202c" }],
    isError: true,
  }));
  server.registerPrompt("review-the-whole-repository-with-a-very-long-prompt-name", {
    description:
      "Review every changed file of the repository and write a short report on what should change " +
      "before the next release, grouped by severity, with file and line references for each finding.",
    argsSchema: { focus: z.string().describe("what to look at").optional() },
  }, ({ focus }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Review, focus ${focus ?? "all"}` } }],
  }));
  server.registerPrompt("hello", { description: "Say hello." }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "Hello" } }],
  }));
}

/**
 * A server whose tools exercise navi's MCP bridge; `extraTools` adds tools that answer with their name;
 * `stats.toolLists` (counted by the caller's transport) is reported by the `list_requests` tool; `ux` adds
 * the terminal-text tests' extras.
 */
export function buildServer(
  name = "test",
  extraTools: string[] = [],
  stats: { toolLists: number } = { toolLists: 0 },
  opts: { ux?: boolean } = {},
): McpServer {
  const server = new McpServer({ name, version: "1.0.0" });
  server.registerTool("list_requests", {
    description: "How many tools/list requests this server has answered.",
    annotations: { readOnlyHint: true },
  }, () => ({ content: [{ type: "text", text: String(stats.toolLists) }] }));
  for (const tool of extraTools) {
    server.registerTool(tool, { description: `Extra tool ${tool}.` }, () => ({
      content: [{ type: "text", text: `${tool} of ${Deno.pid}` }],
    }));
  }
  server.registerTool("echo", {
    description: "Echoes the message.",
    inputSchema: { message: z.string() },
    annotations: { readOnlyHint: true },
  }, ({ message }) => ({ content: [{ type: "text", text: `echo: ${message}` }] }));
  server.registerTool("add", {
    description: "Adds two numbers.",
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
    annotations: { destructiveHint: false },
  }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }));
  const extra = server.registerTool("extra", {
    description: "A tool that appears later.",
    annotations: { readOnlyHint: true },
  }, () => ({ content: [{ type: "text", text: "extra works" }] }));
  extra.disable();
  server.registerTool("enable_extra", { description: "Makes the extra tool available." }, () => {
    extra.enable();
    return { content: [{ type: "text", text: "enabled" }] };
  });
  server.registerTool("fail", { description: "Reports an error." }, () => ({
    content: [{ type: "text", text: "it went wrong" }],
    isError: true,
  }));
  if (opts.ux) uxExtras(server);
  server.registerTool(
    "image",
    { description: "Returns an image.", annotations: { readOnlyHint: true } },
    () => ({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    }),
  );
  server.registerTool("crash", { description: "Exits the server process mid-call." }, () => {
    setTimeout(() => Deno.exit(3), 10);
    return new Promise(() => {});
  });
  server.registerTool("hang", { description: "Never answers." }, () => new Promise(() => {}));
  server.registerTool(
    "pid",
    { description: "The server's process id.", annotations: { readOnlyHint: true } },
    () => ({
      content: [{ type: "text", text: String(Deno.pid) }],
    }),
  );
  server.registerTool("ask", { description: "Asks the user for a name (elicitation)." }, async () => {
    const r = await server.server.elicitInput({
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } },
    });
    return { content: [{ type: "text", text: JSON.stringify(r) }] };
  });
  server.registerTool("roots", {
    description: "Lists the client's roots.",
    annotations: { readOnlyHint: true },
  }, async () => ({
    content: [{ type: "text", text: JSON.stringify((await server.server.listRoots()).roots) }],
  }));
  server.registerTool("getenv", {
    description: "The value of one of the server's environment variables.",
    inputSchema: { name: z.string() },
    annotations: { readOnlyHint: true },
  }, ({ name }) => ({ content: [{ type: "text", text: Deno.env.get(name) ?? "(unset)" }] }));
  server.registerTool("auth_header", {
    description: "The Authorization header of the request (Streamable HTTP only).",
    annotations: { readOnlyHint: true },
  }, (extra) => ({
    content: [{ type: "text", text: String(extra.requestInfo?.headers?.authorization ?? "(none)") }],
  }));
  server.registerTool("toggle_burst", {
    description:
      "Enables and disables the extra tool n times in a row (a burst of list_changed), ends enabled.",
    inputSchema: { n: z.number() },
  }, ({ n }) => {
    for (let i = 0; i < n; i++) {
      extra.disable();
      extra.enable();
    }
    return { content: [{ type: "text", text: `toggled ${n} times` }] };
  });
  server.registerTool("slow", {
    description: "Takes steps x interval_ms; reports progress after each step when progress is true.",
    inputSchema: { steps: z.number(), interval_ms: z.number(), progress: z.boolean() },
    annotations: { readOnlyHint: true },
  }, async ({ steps, interval_ms, progress }, ctx) => {
    const token = ctx._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await new Promise((r) => setTimeout(r, interval_ms));
      if (progress && token !== undefined) {
        await ctx.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
        });
      }
    }
    return { content: [{ type: "text", text: `done after ${steps} steps` }] };
  });
  server.registerTool("big_image", {
    description: "Returns a PNG-typed image of the given size in bytes.",
    inputSchema: { bytes: z.number() },
    annotations: { readOnlyHint: true },
  }, ({ bytes }) => ({
    content: [{ type: "image", data: new Uint8Array(bytes).toBase64(), mimeType: "image/png" }],
  }));
  server.registerTool(`tool.with spaces/${"x".repeat(70)}`, { description: "Long odd name." }, () => ({
    content: [{ type: "text", text: "long" }],
  }));
  return server;
}

if (import.meta.main) {
  const mode = Deno.args[0] ?? "stdio";
  const option = (key: string) =>
    Deno.args.filter((a) => a.startsWith(`${key}=`)).map((a) => a.slice(key.length + 1));
  if (mode === "exit") {
    console.error("test server: refusing to start");
    Deno.exit(1);
  }
  const gate = option("gate")[0];
  for (const end = Date.now() + 30_000; gate && Date.now() < end;) {
    if (await Deno.stat(gate).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  console.error("test server: started");
  const token = Deno.env.get("SERVER_TOKEN");
  if (token) console.error(`test server: my token is ${token}`);
  const stats = { toolLists: 0 };
  const transport = new StdioServerTransport();
  await buildServer("test", option("tool"), stats, { ux: Deno.args.includes("ux") }).connect(transport);
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    if ((message as { method?: string }).method === "tools/list") stats.toolLists++;
    deliver(message);
  };
}
