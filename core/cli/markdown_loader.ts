import { Highlighter } from "./highlight.ts";
import type { StreamRenderer } from "./printer.ts";
import type { Style } from "./style.ts";

type MarkdownModule = typeof import("./markdown.ts");

/**
 * Markdown rendering loaded off the start-up path: `marked` (~15 ms) when the REPL starts, the highlighter
 * (~80 ms) when the first message is sent. Until a part is there, answers show raw or code shows plain.
 */
export class LazyMarkdown {
  #module?: MarkdownModule;
  #loading?: Promise<void>;
  #highlighter = new Highlighter();

  /** Start loading the markdown renderer; `withHighlighting` also loads the code highlighter. */
  preload(opts: { withHighlighting?: boolean } = {}): Promise<void> {
    this.#loading ??= import("./markdown.ts").then((m) => void (this.#module = m)).catch(() => {});
    if (opts.withHighlighting) void this.#highlighter.preload();
    return this.#loading;
  }

  /** `text` rendered whole as rows (for a preview), or undefined while the library is still loading. */
  render(text: string, opts: { style: Style; columns: number }): string[] | undefined {
    if (!this.#module) return undefined;
    const out: string[] = [];
    const md = new this.#module.MarkdownStream({
      write: (t) => void out.push(t),
      ...opts,
      columns: () => opts.columns,
    });
    md.push(text.endsWith("\n") ? text : text + "\n");
    md.end();
    return out.join("").replace(/\n$/, "").split("\n");
  }

  /** A renderer for one streamed answer, or undefined while the library is still loading (raw text then). */
  stream(
    opts: { write(text: string): void; style: Style; columns(): number; redact?: (text: string) => string },
  ): StreamRenderer | undefined {
    if (!this.#module) {
      void this.preload();
      return undefined;
    }
    return new this.#module.MarkdownStream({ ...opts, highlight: this.#highlighter.line });
  }
}
