import { RedactingStream, type Redactor } from "./secrets.ts";
import { type NotificationProtocol, notificationSequence, terminalSafe } from "./neutralise.ts";

/** Where text goes. */
export interface Sink {
  /** Write `text` (secrets redacted and control sequences neutralised, as the sink was made). */
  write(text: string): void;
  /** Pass on text held back (the possible beginning of a secret at the end of a streamed piece). */
  flush?(): void;
  /**
   * Ask the terminal for a desktop notification with `text` (secrets redacted, control characters removed):
   * navi's own OSC 9 / OSC 777 / OSC 99 sequence, the one escape sequence of its kind a sink lets through.
   */
  notify?(text: string, opts: { protocol: NotificationProtocol; tmux?: boolean }): void;
}

/**
 * A sink over a Deno stream for a terminal: secrets are redacted across pieces (the end of a piece that
 * could begin a secret waits for the next piece or `flush`), and control sequences other than navi's own
 * colours are shown escaped. `drawing`: the sink of navi's own drawing on a terminal (the line editor, the
 * approval box), which also lets its cursor moves through. `notify` writes navi's own notification sequence,
 * built from cleaned text.
 */
export function streamSink(
  stream: { writeSync(p: Uint8Array): number },
  secrets?: Redactor,
  opts: { drawing?: boolean } = {},
): Sink {
  const enc = new TextEncoder();
  const redacting = secrets ? new RedactingStream(secrets) : undefined;
  const raw = (text: string) => {
    const bytes = enc.encode(text);
    let off = 0;
    try {
      while (off < bytes.length) off += stream.writeSync(bytes.subarray(off));
    } catch (err) {
      // A closed pipe or a terminal that hung up (EIO) has no reader left: the text has nowhere to go.
      if (!(err instanceof Deno.errors.BrokenPipe) && (err as { code?: string }).code !== "EIO") throw err;
    }
  };
  const emit = (text: string) => raw(terminalSafe(text, opts));
  return {
    write: (text) => emit(redacting ? redacting.push(text) : text),
    flush: () => redacting && emit(redacting.flush()),
    notify: (text, how) => raw(notificationSequence(secrets ? secrets.redact(text) : text, how)),
  };
}
