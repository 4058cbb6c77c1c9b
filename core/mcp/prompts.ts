import type { Catalog } from "./catalog.ts";
import { resourceText } from "./mentions.ts";
import type { GetPromptResult } from "./sdk.ts";

/** One argument of an MCP prompt. */
export interface PromptArgument {
  /** Its name. */
  name: string;
  /** What it is for. */
  description?: string;
  /** Whether the prompt needs it. */
  required: boolean;
}

/** An MCP prompt as a slash command: `/mcp:<server>:<prompt>`. */
export interface PromptCommand {
  /** The command name, `/mcp:<server>:<prompt>` (whitespace in a prompt name becomes `-`). */
  name: string;
  /** The server. */
  server: string;
  /** The prompt's own name. */
  prompt: string;
  /** The prompt's description (or title). */
  description: string;
  /** Its arguments, in the server's order. */
  arguments: PromptArgument[];
}

/** Every prompt of every server as a command row, by server then prompt name. */
export function promptCommands(catalogs: ReadonlyMap<string, Catalog>): PromptCommand[] {
  const out: PromptCommand[] = [];
  for (const server of [...catalogs.keys()].sort()) {
    for (const p of catalogs.get(server)!.prompts) {
      out.push({
        name: `/mcp:${server}:${p.name.replace(/\s+/g, "-")}`,
        server,
        prompt: p.name,
        description: (p.description ?? p.title ?? "").replace(/\s+/g, " ").trim() || `MCP prompt ${p.name}`,
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description ? { description: a.description } : {}),
          required: a.required === true,
        })),
      });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A usage hint for a prompt command: `<city> [state]`. */
export function promptUsage(cmd: PromptCommand): string {
  return cmd.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
}

/**
 * Parse a prompt command's arguments: `name=value` pairs (values may be quoted) and bare values, which fill
 * the declared arguments in order (a prompt with one argument takes all of them). Returns the values, the required arguments still missing and any names
 * the prompt does not declare.
 */
export function parsePromptArgs(
  text: string,
  declared: readonly PromptArgument[],
): { values: Record<string, string>; missing: string[]; unknown: string[] } {
  const values: Record<string, string> = {};
  const unknown: string[] = [];
  const names = new Set(declared.map((a) => a.name));
  const positional: string[] = [];
  for (const m of text.matchAll(/(?:([A-Za-z_][\w-]*)=)?(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))/g)) {
    const value = m[2]?.replace(/\\(.)/g, "$1") ?? m[3] ?? m[4] ?? "";
    if (m[1] === undefined) positional.push(value);
    else if (names.has(m[1])) values[m[1]] = value;
    else unknown.push(m[1]);
  }
  if (declared.length === 1 && positional.length && values[declared[0].name] === undefined) {
    values[declared[0].name] = positional.splice(0).join(" ");
  }
  for (const arg of declared) {
    if (values[arg.name] === undefined && positional.length) values[arg.name] = positional.shift()!;
  }
  if (positional.length) {
    const last = declared.at(-1);
    if (last && values[last.name] !== undefined) values[last.name] += ` ${positional.join(" ")}`;
  }
  const missing = declared.filter((a) => a.required && !values[a.name]).map((a) => a.name);
  return { values, missing, unknown };
}

/** The text a prompts/get answer becomes as one user message (embedded resources inline, media as notes). */
export function promptText(result: GetPromptResult): string {
  return result.messages.map((m) => {
    const c = m.content;
    const body = c.type === "text"
      ? c.text
      : c.type === "resource"
      ? `<resource uri="${c.resource.uri}">\n${resourceText({ contents: [c.resource] })}\n</resource>`
      : c.type === "resource_link"
      ? `[resource link ${c.uri}]`
      : `[${c.type} ${"mimeType" in c ? c.mimeType : ""}, not attached]`;
    return m.role === "assistant" ? `[assistant] ${body}` : body;
  }).join("\n\n");
}
