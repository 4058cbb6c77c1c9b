// Checks on a session file after a fault: it loads, the provider would accept it, no secret is in it.
import { join } from "node:path";
import { assert } from "../helpers.ts";

type Message = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };

/** The messages of a session file, in order. */
export function sessionMessages(text: string): Message[] {
  return text.trim().split("\n").map((l) => JSON.parse(l)).filter((r) => r.type === "message").map((r) =>
    r.message
  );
}

/**
 * Fails unless the session is one the provider accepts: every line is JSON, no assistant message has null
 * content without tool calls, every tool call is answered by a tool message before the next non-tool
 * message, and no tool message answers a call that was not made. `secrets` must appear nowhere.
 */
export function assertValidSession(text: string, secrets: string[] = []): Message[] {
  const messages = sessionMessages(text);
  let open = new Set<string>();
  for (const m of messages) {
    if (m.role === "tool") {
      assert(open.delete(m.tool_call_id!), `tool message answers an unknown call ${m.tool_call_id}`);
      continue;
    }
    assert(open.size === 0, `tool call(s) ${[...open].join(", ")} left without a result`);
    if (m.role === "assistant") {
      const calls = m.tool_calls ?? [];
      assert(
        typeof m.content === "string" || (m.content === null && calls.length > 0),
        `assistant message with content ${JSON.stringify(m.content)} and ${calls.length} tool calls`,
      );
      open = new Set(calls.map((c) => c.id));
    }
  }
  assert(open.size === 0, `tool call(s) ${[...open].join(", ")} left without a result`);
  for (const s of secrets) assert(!text.includes(s), "a secret is in the session file");
  return messages;
}

/** The text of the only session file under `home`. */
export async function onlySession(home: string): Promise<string> {
  const dir = join(home, "sessions");
  const files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".jsonl"));
  assert(files.length === 1, `expected one session, found ${files.length}`);
  return await Deno.readTextFile(join(dir, files[0].name));
}
