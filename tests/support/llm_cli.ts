// A scripted LLM server for shell smoke tests: prints its URL, then answers each prompt with useToolScript.
import { startLlmServer, type Step } from "./llm_server.ts";

type Message = { role: string; content: string; tool_calls?: { function: { name: string } }[] };

/**
 * A prompt `use <tool> <json arguments>` makes the model call that tool once, then answer
 * `<tool> said: <the tool result as sent to the model>`; any other prompt gets `no tool asked`.
 */
export function useToolScript(_i: number, body: Record<string, unknown>): Step {
  const messages = body.messages as Message[];
  const last = messages.at(-1)!;
  if (last.role === "tool") {
    const name = messages.findLast((m) => m.tool_calls)?.tool_calls?.[0].function.name;
    return { text: `${name} said: ${last.content}` };
  }
  const ask = /^use (\S+) (\{.*\})$/m.exec(last.content);
  return ask ? { toolCalls: [{ name: ask[1], arguments: ask[2] }] } : { text: "no tool asked" };
}

if (import.meta.main) {
  const server = startLlmServer(useToolScript);
  console.log(server.url);
  Deno.addSignalListener("SIGTERM", async () => {
    await server.close();
    Deno.exit(0);
  });
}
