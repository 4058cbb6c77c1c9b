import type { ApprovalIO } from "./approval_prompt.ts";
import type { History } from "./history.ts";
import { type Completer, LineEditor, type LineResult } from "./line_editor.ts";
import { chooseFromList } from "./picker.ts";
import type { Style } from "./style.ts";
import { TerminalInput, terminalOut, type TermOut } from "./terminal.ts";

/** How the REPL reads: a raw-mode terminal, or lines from a pipe. */
export interface ReplIO {
  readonly interactive: boolean;
  /** The next message or command. */
  read(opts: { prompt: string; complete?: Completer }): Promise<LineResult>;
  /** One line answering a question (elicitation, a pick from a list); undefined when cancelled. */
  ask(prompt: string): Promise<string | undefined>;
  /** Run `work`; Ctrl-C and Esc call `interrupt` meanwhile; text typed meanwhile starts the next prompt. */
  during<T>(interrupt: () => void, work: () => Promise<T>): Promise<T>;
  /** For approval questions (interactive only). */
  approval?: Omit<ApprovalIO, "style">;
  /** navi's own drawing on the terminal (interactive only). */
  term?: TermOut;
  /** Pick one of `rows` with the arrow keys (interactive only); the index, or undefined when cancelled. */
  choose?(rows: string[], opts: { title: string }): Promise<number | undefined>;
  /** Print a line without disturbing the input being edited. */
  notify(text: string, fallback: (text: string) => void): void;
  close(): void;
}

function onSigint(interrupt: () => void): () => void {
  try {
    Deno.addSignalListener("SIGINT", interrupt);
    return () => Deno.removeSignalListener("SIGINT", interrupt);
  } catch {
    return () => {};
  }
}

/** The REPL on a terminal: raw mode, the line editor, keys during a turn. */
export function interactiveIO(opts: { history: History; style: Style }): ReplIO {
  const term = terminalOut();
  const input = new TerminalInput(Deno.stdin, term);
  const editor = new LineEditor(input, term);
  input.start();
  let typeahead = "";
  const ask = async (prompt: string) => {
    const r = await editor.readLine({ prompt, simple: true });
    return r.kind === "line" ? r.text : undefined;
  };
  return {
    interactive: true,
    read({ prompt, complete }) {
      const initial = typeahead;
      typeahead = "";
      return editor.readLine({ prompt, complete, history: opts.history, initial });
    },
    ask,
    async during(interrupt, work) {
      const pop = input.push((keys) => {
        for (const key of keys) {
          if (key.kind === "text" || key.kind === "paste") typeahead += key.text;
          else if (key.name === "escape" || key.name === "closed" || (key.ctrl && key.name === "c")) {
            interrupt();
          } else if (key.name === "backspace") typeahead = typeahead.slice(0, -1);
        }
      });
      const unlisten = onSigint(interrupt);
      try {
        return await work();
      } finally {
        unlisten();
        pop();
      }
    },
    approval: {
      input,
      out: term,
      readLine: (prompt) => editor.readLine({ prompt, simple: true }),
    },
    term,
    choose: (rows, { title }) => chooseFromList(rows, { input, out: term, style: opts.style, title }),
    notify: (text) => editor.above(text),
    close: () => input.close(),
  };
}

/** The REPL reading lines from a pipe: each line is a message or a command; end of input exits. */
export function pipedIO(stdin: ReadableStream<Uint8Array> = Deno.stdin.readable): ReplIO {
  const reader = stdin.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let ended = false;
  const nextLine = async (): Promise<string | undefined> => {
    while (true) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = buffered.slice(0, nl).replace(/\r$/, "");
        buffered = buffered.slice(nl + 1);
        return line;
      }
      if (ended) {
        if (!buffered) return undefined;
        const last = buffered;
        buffered = "";
        return last;
      }
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffered += value;
    }
  };
  return {
    interactive: false,
    async read() {
      const line = await nextLine();
      return line === undefined ? { kind: "eof" } : { kind: "line", text: line };
    },
    ask: () => Promise.resolve(undefined),
    async during(interrupt, work) {
      const unlisten = onSigint(interrupt);
      try {
        return await work();
      } finally {
        unlisten();
      }
    },
    notify: (text, fallback) => fallback(text),
    close: () => void reader.cancel().catch(() => {}),
  };
}
