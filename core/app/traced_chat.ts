import type { ChatFn } from "../provider/mod.ts";
import type { StartupTrace } from "../trace/mod.ts";

/** `chat` marking the run's first request sent and first byte received in `trace` (itself when none). */
export function tracedChat(chat: ChatFn, trace: StartupTrace | undefined): ChatFn {
  if (!trace?.enabled) return chat;
  return async function* (req, signal, opts) {
    trace.mark("first request sent");
    for await (const chunk of chat(req, signal, opts)) {
      trace.mark("first byte");
      yield chunk;
    }
  };
}
