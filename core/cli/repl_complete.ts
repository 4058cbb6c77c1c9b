import type { Completer } from "./line_editor.ts";
import { completeMention, type MentionProvider } from "../mentions/mod.ts";
import { type SlashCommand, slashCompletion } from "./slash.ts";

/** Where the REPL's Tab completion looks: the slash table, mention providers, the provider's models. */
export interface CompletionSources {
  commands: SlashCommand[];
  mentions: readonly MentionProvider[];
  /** Model ids once listed (undefined: not yet). */
  models(): string[] | undefined;
  /** List the provider's models (for `/model <Tab>` before `/model` ran). */
  loadModels(): Promise<string[]>;
}

/** Tab completion: slash commands and their arguments at the start, `@mentions` anywhere. */
export function replCompleter(sources: CompletionSources): Completer {
  return async (text, cursor) => {
    const before = text.slice(0, cursor);
    if (before.startsWith("/model ") && !sources.models()) {
      await sources.loadModels().catch(() => []);
    }
    const slash = slashCompletion(
      sources.commands,
      before,
      (cmd) => cmd === "/model" ? sources.models() ?? [] : [],
    );
    if (slash) return slash;
    return await completeMention(text, cursor, sources.mentions);
  };
}
