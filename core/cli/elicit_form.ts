import type { Elicit } from "../mod.ts";
import { escapeControls } from "../output/mod.ts";

type Choice = { const?: unknown; title?: string };
type Prop = {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: Choice[];
};

/** The values an enum field allows, with the labels to show (`oneOf` titles or `enumNames`). */
function choicesOf(prop: Prop): { value: unknown; label: string }[] | undefined {
  if (Array.isArray(prop.oneOf) && prop.oneOf.every((c) => c && "const" in c)) {
    return prop.oneOf.map((c) => ({
      value: c.const,
      label: c.title ? `${c.const} (${c.title})` : String(c.const),
    }));
  }
  if (!Array.isArray(prop.enum)) return undefined;
  return prop.enum.map((v, i) => ({
    value: v,
    label: prop.enumNames?.[i] ? `${v} (${prop.enumNames[i]})` : String(v),
  }));
}

/**
 * An MCP elicitation answered field by field through `question` (the REPL's prompt): Enter takes a field's
 * default, an enum shows its choices and takes one of them (by value or number), numbers and booleans are
 * converted, and the user confirms before anything is sent. The server's texts are shown escaped.
 */
export function elicitByQuestions(
  question: (text: string) => Promise<string>,
  opts: { write(text: string): void; before?(): void },
): Elicit {
  return async ({ server, message, schema }) => {
    opts.before?.();
    opts.write(`? MCP server ${escapeControls(server)} asks: ${escapeControls(message)}\n`);
    const props = ((schema ?? {}) as { properties?: Record<string, Prop> }).properties ?? {};
    const content: Record<string, unknown> = {};
    for (const [key, prop] of Object.entries(props)) {
      const choices = choicesOf(prop);
      const about = prop.description ? ` (${escapeControls(prop.description)})` : "";
      const among = choices
        ? ` one of ${choices.map((c, i) => `${i + 1}) ${escapeControls(c.label)}`).join(", ")}`
        : "";
      const hint = prop.default !== undefined ? ` [${escapeControls(JSON.stringify(prop.default))}]` : "";
      for (let tries = 0; tries < 3; tries++) {
        const raw = (await question(`  ${escapeControls(key)}${about}${among}${hint}: `)).trim();
        if (raw === "" && prop.default !== undefined) content[key] = prop.default;
        else if (choices) {
          const picked = choices[Number(raw) - 1] ?? choices.find((c) => String(c.value) === raw);
          if (!picked) {
            opts.write(`  ${raw ? `${escapeControls(raw)} is not one of the choices` : "choose one"}\n`);
            continue;
          }
          content[key] = picked.value;
        } else if (prop.type === "number" || prop.type === "integer") content[key] = Number(raw);
        else if (prop.type === "boolean") content[key] = /^(y|yes|true)$/i.test(raw);
        else content[key] = raw;
        break;
      }
    }
    const send = /^y/i.test((await question("  send this answer? [y]es / [n]o: ")).trim());
    return send ? { action: "accept", content } : { action: "decline" };
  };
}
