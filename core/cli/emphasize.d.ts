// The part of emphasize's API navi uses, declared here: its own types pull Node's global types into the
// program (they change ReadableStream and TextDecoderStream for every file).
/** Grammars by language name (highlight.js language functions). */
export declare const common: Record<string, unknown>;
/** An emphasize instance over `grammars`. */
export declare function createEmphasize(grammars?: Record<string, unknown>): {
  highlight(language: string, value: string): { value: string };
  registered(aliasOrName: string): boolean;
};
