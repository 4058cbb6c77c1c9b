import { RedactingStream, type Redactor } from "./secrets.ts";
import { terminalSafe } from "./neutralise.ts";

/** Where text goes. */
export interface Sink {
  /** Write `text` (secrets redacted and control sequences neutralised, as the sink was made). */
  write(text: string): void;
  /** Pass on text held back (the possible beginning of a secret at the end of a streamed piece). */
  flush?(): void;
}

/**
 * A sink over a Deno stream for a terminal: secrets are redacted across pieces (the end of a piece that
 * could begin a secret waits for the next piece or `flush`), and control sequences other than navi's own
 * colours are shown escaped. `drawing`: the sink of navi's own drawing on a terminal (the line editor, the
 * approval box), which also lets its cursor moves through.
 */
export function streamSink(
  stream: { writeSync(p: Uint8Array): number },
  secrets?: Redactor,
  opts: { drawing?: boolean } = {},
): Sink {
  const enc = new TextEncoder();
  const redacting = secrets ? new RedactingStream(secrets) : undefined;
  const emit = (text: string) => {
    const bytes = enc.encode(terminalSafe(text, opts));
    let off = 0;
    try {
      while (off < bytes.length) off += stream.writeSync(bytes.subarray(off));
    } catch (err) {
      // A closed pipe or a terminal that hung up (EIO) has no reader left: the text has nowhere to go.
      if (!(err instanceof Deno.errors.BrokenPipe) && (err as { code?: string }).code !== "EIO") throw err;
    }
  };
  return {
    write: (text) => emit(redacting ? redacting.push(text) : text),
    flush: () => redacting && emit(redacting.flush()),
  };
}
