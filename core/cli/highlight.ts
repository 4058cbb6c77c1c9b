import type { HighlightLine } from "./markdown.ts";

type Emphasize = ReturnType<typeof import("./emphasize_shim.ts").createEmphasize>;

/**
 * Syntax highlighting of code-fence lines with `emphasize` (highlight.js grammars, ANSI output). The library
 * (~80 ms to load) is imported on first need, in the background: until it is there, code shows plain.
 */
export class Highlighter {
  #emphasize?: Emphasize;
  #loading?: Promise<void>;

  /** Start loading the library (no-op when it is loading or loaded). */
  preload(): Promise<void> {
    this.#loading ??= import("./emphasize_shim.ts")
      .then(({ common, createEmphasize }) => void (this.#emphasize = createEmphasize(common)))
      .catch(() => {});
    return this.#loading;
  }

  /** Highlight one line of `lang` code; undefined while loading or for an unknown language. */
  readonly line: HighlightLine = (lang, code) => {
    if (!this.#emphasize) {
      void this.preload();
      return undefined;
    }
    if (!lang || !this.#emphasize.registered(lang)) return undefined;
    try {
      return this.#emphasize.highlight(lang, code).value;
    } catch {
      return undefined;
    }
  };
}
