import type { Elicit } from "../mod.ts";

type Prop = { type?: string; description?: string; default?: unknown };

/**
 * An MCP elicitation answered field by field through `question` (the REPL's prompt): Enter takes a field's
 * default, numbers and booleans are converted, and the user confirms before anything is sent.
 */
export function elicitByQuestions(
  question: (text: string) => Promise<string>,
  opts: { write(text: string): void; before?(): void },
): Elicit {
  return async ({ server, message, schema }) => {
    opts.before?.();
    opts.write(`? MCP server ${server} asks: ${message}\n`);
    const props = ((schema ?? {}) as { properties?: Record<string, Prop> }).properties ?? {};
    const content: Record<string, unknown> = {};
    for (const [key, prop] of Object.entries(props)) {
      const hint = prop.default !== undefined ? ` [${JSON.stringify(prop.default)}]` : "";
      const raw = await question(`  ${key}${prop.description ? ` (${prop.description})` : ""}${hint}: `);
      if (raw.trim() === "" && prop.default !== undefined) content[key] = prop.default;
      else if (prop.type === "number" || prop.type === "integer") content[key] = Number(raw);
      else if (prop.type === "boolean") content[key] = /^(y|yes|true)$/i.test(raw.trim());
      else content[key] = raw;
    }
    const send = /^y/i.test((await question("  send this answer? [y]es / [n]o: ")).trim());
    return send ? { action: "accept", content } : { action: "decline" };
  };
}
