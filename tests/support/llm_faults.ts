// Fault modes of the scripted LLM server (llm_server.ts): a response stream that is cut, ends early, hangs
// after its headers or trickles in slowly. Kept apart from the server's normal answers.

/** How a scripted text or tool-call response misbehaves. Without a fault the stream is complete. */
export interface Fault {
  /**
   * Send only the first `n` SSE events of the response, then do `then`. Events in order: the role chunk
   * (event 0), the text pieces, for each tool call its header and argument pieces, the finish_reason chunk,
   * the usage chunk, `data: [DONE]`. `0` sends the headers and no event.
   */
  cutAfter?: number;
  /**
   * What happens at the cut (or after the last event): `close` ends the body normally (a clean end of
   * stream), `reset` breaks the connection mid-body, `hang` keeps the connection open and sends nothing
   * more until the client goes away. Default `close`.
   */
  then?: "close" | "reset" | "hang";
  /** Leave out the finish_reason chunk, the usage chunk and/or `data: [DONE]`. */
  omit?: ("finish" | "usage" | "done")[];
  /** Milliseconds to wait before each event: a slow stream. */
  delayMs?: number;
}

/** How far a response got; the server keeps one per request so tests can act at the right moment. */
export interface Progress {
  /** SSE events written so far. */
  sent: number;
  /** The response stopped sending and holds the connection open (`then: "hang"`). */
  hanging: boolean;
  /** The response body ended (closed, reset, or the client went away). */
  ended: boolean;
}

/** Which of a response's events are the finish_reason chunk, the usage chunk and `[DONE]` (the last three). */
function kindOf(index: number, total: number): "finish" | "usage" | "done" | undefined {
  return (["finish", "usage", "done"] as const)[index - (total - 3)];
}

/**
 * A streaming response that sends `events` (complete SSE events, the last three being finish, usage and
 * [DONE]) with `fault` applied; `progress` is updated as it goes. A hang ends when the client disconnects
 * (the body is cancelled) or `closing` aborts (the server shuts down).
 */
export function faultyResponse(
  events: string[],
  opts: { fault: Fault; progress: Progress; closing: AbortSignal },
): Response {
  const { fault, progress, closing } = opts;
  const kept = events.filter((_, i) => !fault.omit?.includes(kindOf(i, events.length)!));
  const limit = Math.min(fault.cutAfter ?? kept.length, kept.length);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled!: () => void;
  const gone = new Promise<void>((resolve) => (cancelled = () => {
    clearTimeout(timer);
    resolve();
  }));
  closing.addEventListener("abort", () => cancelled(), { once: true });
  const enc = new TextEncoder();
  // Pull-based with no queue: an event is produced only once the previous one was taken for sending, so a
  // reset comes after the events before it reached the connection.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (progress.sent < limit) {
        if (fault.delayMs) await new Promise((r) => (timer = setTimeout(r, fault.delayMs)));
        controller.enqueue(enc.encode(kept[progress.sent++]));
        return;
      }
      const then = fault.then ?? "close";
      if (then === "hang") {
        progress.hanging = true;
        if (!closing.aborted) await gone;
      }
      progress.ended = true;
      if (then === "reset") controller.error(new Error("llm_server: connection reset (fault mode)"));
      else controller.close();
    },
    cancel() {
      progress.ended = true;
      cancelled();
    },
  }, { highWaterMark: 0 });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}
