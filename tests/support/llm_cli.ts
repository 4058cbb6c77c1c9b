// A scripted LLM server for shell smoke tests: prints its URL, then calls mcp__sdk__echo once and reports it.
import { startLlmServer } from "./llm_server.ts";

const server = startLlmServer((_i, body) => {
  const last = (body.messages as { role: string; content: string }[]).at(-1)!;
  if (last.role !== "tool") {
    return { toolCalls: [{ name: "mcp__sdk__echo", arguments: '{"message":"smoke"}' }] };
  }
  return { text: `echo said: ${JSON.parse(last.content).output}` };
});
console.log(server.url);
Deno.addSignalListener("SIGTERM", async () => {
  await server.close();
  Deno.exit(0);
});
