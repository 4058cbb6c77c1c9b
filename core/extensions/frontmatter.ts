// YAML frontmatter of Markdown files (commands, skills, subagents): the `---` block split off here, the YAML
// parsed by the `yaml` package, loaded on the first file whose frontmatter is more than `key: plain text`
// lines (those are read here with the meaning YAML gives them: see `plainMapping`).

/** A Markdown file split into its frontmatter and its body. */
export interface Frontmatter {
  /** The frontmatter's keys and values (`{}` when the file has none). */
  data: Record<string, unknown>;
  /** The text after the frontmatter. */
  body: string;
  /** The 1-based line of the file the body starts on. */
  bodyLine: number;
}

/** A frontmatter that cannot be read; the message is one line, `file:line: problem`. */
export class FrontmatterError extends Error {
  /** The file. */
  readonly file: string;
  /** The 1-based line of the problem. */
  readonly line: number;

  /** `file:line: message`. */
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

const PLAIN_LINE = /^([A-Za-z][A-Za-z0-9_-]*):[ ]+([A-Za-z][A-Za-z0-9 _.,;()/'!?-]*)$/;
const KEYWORD = /^(true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;

/**
 * The frontmatter when every line is blank or `key: text` whose text YAML reads as that very string (it
 * starts with a letter, holds no `:`, `#`, quote-start, flow or tag character, and is not `true`, `false` or
 * `null`), with no key twice; else undefined, and the `yaml` package reads it. A frontmatter of this kind is
 * the common case (name, description), and it costs no YAML parser.
 */
export function plainMapping(yamlText: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const raw of yamlText.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!line.trim()) continue;
    const m = PLAIN_LINE.exec(line);
    if (!m || Object.hasOwn(out, m[1])) return undefined;
    const value = m[2].trimEnd();
    if (KEYWORD.test(value)) return undefined;
    out[m[1]] = value;
  }
  return out;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*\r?$/m;

/**
 * Split `text` (the contents of `file`) into its YAML frontmatter and body. A file that does not start with a
 * `---` line has no frontmatter. Throws FrontmatterError (naming `file` and the line) for an unclosed block,
 * YAML that does not parse, or YAML that is not a mapping.
 */
export async function parseFrontmatter(text: string, file: string): Promise<Frontmatter> {
  const text0 = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const open = OPEN.exec(text0);
  if (!open) return { data: {}, body: text0, bodyLine: 1 };
  const rest = text0.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) throw new FrontmatterError(file, 1, "the frontmatter opened by --- is never closed");
  const yamlText = rest.slice(0, close.index);
  const after = rest.slice(close.index + close[0].length).replace(/^\n/, "");
  const yamlLines = yamlText.split("\n").length - (yamlText.endsWith("\n") || !yamlText ? 1 : 0);
  const bodyLine = 2 + yamlLines + 1;
  const plain = plainMapping(yamlText);
  if (plain) return { data: plain, body: after, bodyLine };
  const { LineCounter, parseDocument } = await import("yaml");
  const lines = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const problem = doc.errors[0];
  if (problem) {
    const line = 1 + lines.linePos(problem.pos[0]).line;
    throw new FrontmatterError(file, line, `invalid YAML: ${problem.message.split("\n")[0]}`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    throw new FrontmatterError(file, 2, `invalid YAML: ${(err as Error).message.split("\n")[0]}`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new FrontmatterError(file, 2, "the frontmatter is not a YAML mapping of keys to values");
  }
  return { data: data as Record<string, unknown>, body: after, bodyLine };
}
