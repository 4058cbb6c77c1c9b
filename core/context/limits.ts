// What cannot fit the model's window at all: a message too large to send, and tool-call arguments or
// results too large to keep in the conversation (kept whole in the session's outputs folder instead).
import type { Message } from "../provider/mod.ts";

/** A message navi did not send because it alone cannot fit the model's window. */
export class ContextLimitError extends Error {
  /** `ContextLimitError`. */
  override name = "ContextLimitError";
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The largest `<file path="...">` attachment of a message (the one to read in parts instead). */
function largestAttachment(text: string): { path: string; bytes: number } | undefined {
  let best: { path: string; bytes: number } | undefined;
  for (const m of text.matchAll(/<file path="([^"]+)">\n([\s\S]*?)<\/file>/g)) {
    const bytes = new TextEncoder().encode(m[2]).length;
    if (!best || bytes > best.bytes) best = { path: m[1], bytes };
  }
  return best;
}

/**
 * The one line saying a message cannot be sent: its size, the model's window and what is left of it for a
 * message, and what to do instead (attach less, or have the file read in parts).
 */
export function tooLargeLine(
  text: string,
  opts: { tokens: number; window: number; room: number },
): string {
  const size = `about ${opts.tokens.toLocaleString("en-US")} tokens (${
    kb(new TextEncoder().encode(text).length)
  })`;
  const window = `the model's window is ${opts.window.toLocaleString("en-US")} tokens, about ${
    Math.max(0, opts.room).toLocaleString("en-US")
  } of them for a message`;
  const file = largestAttachment(text);
  const fix = file && file.bytes * 2 > text.length
    ? `attach less: ask for ${file.path} (${
      kb(file.bytes)
    }) to be read in parts instead of attaching it whole`
    : "send less, or save the text to a file and ask for it to be read in parts";
  return `the message is ${size} and cannot fit: ${window}; nothing was sent. To go on, ${fix}`;
}

/** What replaces a text too large for the conversation: where it is kept and how large it was. */
export function leftOutNote(what: string, opts: { chars: number; tokens: number; path?: string }): string {
  const where = opts.path
    ? `; the full text is in ${opts.path} (read it in parts with read_file offset and limit)`
    : "";
  return `[${what} of ${opts.chars.toLocaleString("en-US")} characters (about ${
    opts.tokens.toLocaleString("en-US")
  } tokens) is too large for the model's window and was left out of the conversation${where}]`;
}

/**
 * An assistant message with its over-large tool-call arguments replaced by a note (valid JSON, so every
 * provider accepts it); `replace` decides per call and returns the note, or undefined to keep the arguments.
 */
export function withFittedArguments(
  message: Message,
  replace: (args: string, callId: string) => string | undefined,
): Message {
  const calls = message.tool_calls as
    | { id: string; function: { name: string; arguments: string } }[]
    | undefined;
  if (!calls?.length) return message;
  let changed = false;
  const fitted = calls.map((c) => {
    const note = replace(c.function.arguments, c.id);
    if (note === undefined) return c;
    changed = true;
    return { ...c, function: { ...c.function, arguments: JSON.stringify({ navi_note: note }) } };
  });
  return changed ? { ...message, tool_calls: fitted } : message;
}
