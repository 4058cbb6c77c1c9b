import { createParser, type EventSourceMessage } from "eventsource-parser";
import { abortError } from "./retry.ts";
import type { Chunk } from "./messages.ts";

/** What reading one streamed response needs. */
export interface ReadOptions {
  /** Aborts the read (Ctrl-C); the read then throws an `AbortError`. */
  signal: AbortSignal;
  /** The provider as named in messages, e.g. `local (http://127.0.0.1:8080/v1)`. */
  where: string;
  /** Removes secrets from a message. */
  scrub(text: string): string;
  /** Builds the error thrown for a failure (navi's ApiError). */
  fail(message: string): Error;
}

/** One server-sent event; `tail` when the body ended before the blank line that closes it. */
export interface SseEvent extends EventSourceMessage {
  tail?: boolean;
}

/**
 * The server-sent events of a response body. The last event counts even without its closing blank line
 * (some gateways end the body right after `data: [DONE]\n`); such an event is marked `tail`. A body that
 * breaks off throws `fail(...)`, an abort throws an `AbortError`.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  opts: ReadOptions,
): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  let tail = false;
  const parser = createParser({
    onEvent: (event) => queue.push(tail ? { ...event, tail } : event),
    maxBufferSize: 16 * 1024 * 1024,
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let last = "";
  try {
    while (true) {
      let next: ReadableStreamReadResult<string>;
      try {
        next = await reader.read();
      } catch (err) {
        if (opts.signal.aborted) throw abortError(opts.signal);
        throw opts.fail(`the response stream from ${opts.where} broke off: ${opts.scrub(reason(err))}`);
      }
      if (next.done) break;
      if (next.value) last = next.value;
      parser.feed(next.value);
      yield* queue.splice(0);
    }
    tail = true;
    parser.feed(last.endsWith("\n") || last.endsWith("\r") ? "\n" : "\n\n");
    yield* queue.splice(0);
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * The chunks of a streamed Chat Completions response body. The stream is complete once a `finish_reason`
 * arrived and the body ended, with or without `data: [DONE]`; a body that ends before any `finish_reason`, or
 * breaks off, throws `fail(...)` after the chunks that arrived; an abort throws an `AbortError` (the openai
 * SDK's own iterator returns quietly on both).
 */
export async function* readChatStream(
  body: ReadableStream<Uint8Array>,
  opts: ReadOptions,
): AsyncGenerator<Chunk> {
  const { signal, where } = opts;
  let finished = false;
  for await (const { event, data, tail } of readEvents(body, opts)) {
    if (data.trim() === "[DONE]") continue;
    const chunk = parse(data, opts, tail);
    if (!chunk) continue;
    if (event === "error" || chunk.error) {
      const message = (chunk.error as { message?: string } | undefined)?.message ?? chunk.message ?? data;
      throw opts.fail(
        `API error from ${where} in the response stream: ${oneLine(opts.scrub(String(message)))}`,
      );
    }
    if (chunk.choices?.some((c) => c.finish_reason)) finished = true;
    yield chunk;
  }
  if (signal.aborted) throw abortError(signal);
  if (!finished) {
    throw opts.fail(
      `the response stream from ${where} ended before the answer was complete (no finish_reason)`,
    );
  }
}

/**
 * One event's data as a JSON object. A `tail` event that is not valid JSON is the cut end of a stream, not a
 * bad event: it is dropped (undefined) and the completeness check decides.
 */
export function parse(data: string, opts: ReadOptions, tail = false): Chunk | undefined {
  try {
    const value = JSON.parse(data);
    if (value && typeof value === "object") return value;
  } catch (err) {
    if (tail) return undefined;
    throw opts.fail(`bad response from ${opts.where}: ${oneLine(opts.scrub(reason(err)))}`);
  }
  throw opts.fail(`bad response from ${opts.where}: a stream event is not a JSON object`);
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `text` on one line: runs of white space as one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
