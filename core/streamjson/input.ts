// `--input-format stream-json`: user messages as JSON lines on stdin, in Claude Code's shape.
import type { UserContent } from "../agent/mod.ts";

/** One input line read: a user message (its text, and parts when it has images), or why it was refused. */
export type InputMessage =
  | { ok: true; text: string; content: UserContent }
  | { ok: false; error: string };

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** One content block of an input message as a Chat Completions part, or an error. */
function part(block: unknown): Record<string, unknown> | string {
  if (!block || typeof block !== "object") return "a content block is not an object";
  const b = block as Record<string, unknown>;
  if (b.type === "text") {
    return typeof b.text === "string" ? { type: "text", text: b.text } : "a text block has no text";
  }
  if (b.type === "image") {
    const src = b.source as Record<string, unknown> | undefined;
    if (src?.type !== "base64" || typeof src.data !== "string" || !IMAGE_TYPES.has(String(src.media_type))) {
      return "an image block needs source {type: base64, media_type: image/png|jpeg|gif|webp, data}";
    }
    return { type: "image_url", image_url: { url: `data:${src.media_type};base64,${src.data}` } };
  }
  return `content blocks of type ${JSON.stringify(b.type)} are not supported (text, image)`;
}

/**
 * Read one line of `--input-format stream-json`: `{"type":"user","message":{"role":"user","content":...}}`
 * where content is a string or text and image blocks. Anything else is refused with one reason.
 */
export function parseInputLine(line: string): InputMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, error: "not valid JSON" };
  }
  const v = value as Record<string, unknown> | null;
  if (!v || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: "not a JSON object" };
  if (v.type !== "user") {
    return { ok: false, error: `messages of type ${JSON.stringify(v.type)} are not supported (user)` };
  }
  const message = v.message as Record<string, unknown> | undefined;
  if (!message || typeof message !== "object" || message.role !== "user") {
    return { ok: false, error: 'a user message needs "message": {"role": "user", "content": ...}' };
  }
  const content = message.content;
  if (typeof content === "string") return { ok: true, text: content, content };
  if (!Array.isArray(content) || !content.length) {
    return { ok: false, error: "message.content must be a string or a non-empty array of blocks" };
  }
  const parts: Record<string, unknown>[] = [];
  for (const block of content) {
    const p = part(block);
    if (typeof p === "string") return { ok: false, error: p };
    parts.push(p);
  }
  const text = parts.filter((p) => p.type === "text").map((p) => p.text as string).join("\n");
  return parts.every((p) => p.type === "text")
    ? { ok: true, text, content: text }
    : { ok: true, text, content: parts };
}

/** The lines of a byte stream, one at a time (the last one without a newline too). */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    rest += chunk;
    let nl: number;
    while ((nl = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, nl).replace(/\r$/, "");
      rest = rest.slice(nl + 1);
    }
  }
  if (rest) yield rest;
}
