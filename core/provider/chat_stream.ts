import { EventSourceParserStream } from "eventsource-parser/stream";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { abortError } from "./retry.ts";

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

/**
 * The chunks of a streamed Chat Completions response body. The stream must be complete: a body that ends
 * before a `finish_reason` or before `data: [DONE]`, or breaks off, throws `fail(...)` after the chunks that
 * arrived; an abort throws an `AbortError` (the openai SDK's own iterator returns quietly on both).
 */
export async function* readChatStream(
  body: ReadableStream<Uint8Array>,
  opts: ReadOptions,
): AsyncGenerator<ChatCompletionChunk> {
  const { signal, where } = opts;
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(
    new EventSourceParserStream({ onError: "terminate", maxBufferSize: 16 * 1024 * 1024 }),
  );
  const reader = events.getReader();
  let finished = false;
  let done = false;
  try {
    while (!done) {
      let next: ReadableStreamReadResult<{ event?: string; data: string }>;
      try {
        next = await reader.read();
      } catch (err) {
        if (signal.aborted) throw abortError(signal);
        throw opts.fail(`the response stream from ${where} broke off: ${opts.scrub(reason(err))}`);
      }
      if (next.done) break;
      const { event, data } = next.value;
      if (data.trim() === "[DONE]") {
        done = true;
        continue;
      }
      const chunk = parse(data, opts);
      if (event === "error" || chunk.error) {
        const message = chunk.error?.message ?? chunk.message ?? data;
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
    if (!done) throw opts.fail(`the response stream from ${where} ended without data: [DONE]`);
  } finally {
    reader.cancel().catch(() => {});
  }
}

type Parsed = ChatCompletionChunk & { error?: { message?: string }; message?: string };

function parse(data: string, opts: ReadOptions): Parsed {
  try {
    const value = JSON.parse(data);
    if (value && typeof value === "object") return value;
  } catch (err) {
    throw opts.fail(`bad response from ${opts.where}: ${oneLine(opts.scrub(reason(err)))}`);
  }
  throw opts.fail(`bad response from ${opts.where}: a stream event is not a JSON object`);
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
