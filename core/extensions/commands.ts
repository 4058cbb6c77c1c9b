// Custom slash commands: Markdown files (optional YAML frontmatter) in `commands/` folders, and their
// expansion: $ARGUMENTS, $1..$9 and !`command` lines (@path mentions go through the one mention pipeline later).
import { join, resolve } from "node:path";
import type { ProjectFolder } from "../project/mod.ts";
import { listFiles, outsideProject, readExtensionFile } from "./files.ts";
import { FrontmatterError, parseFrontmatter } from "./frontmatter.ts";

/** One command file. */
export interface CustomCommand {
  /** Its name without the slash: the path below `commands/` without `.md`, folders joined with `:`. */
  name: string;
  /** The file (absolute). */
  file: string;
  /** The folder it was found in (its `level` says whose it is). */
  folder: ProjectFolder;
  /** `description` of the frontmatter, else the body's first line. */
  description: string;
  /** `argument-hint`: what to type after the name. */
  argumentHint?: string;
  /** `model`: the model the command's turn uses. */
  model?: string;
  /** `allowed-tools`, as written (read, not honoured: every call goes through navi's approval). */
  allowedTools?: string[];
  /** The prompt template. */
  body: string;
  /** The commands of its !`...` lines, as written. */
  shellLines: string[];
}

/** What expanding a command produced. */
export interface Expansion {
  /** The prompt for the model (@path mentions still in it, for the mention pipeline). */
  text: string;
  /** Lines for the user: shell lines not run, a command that mentions itself. */
  notes: string[];
  /** The model the turn should use (the command's `model`). */
  model?: string;
}

/** How `!` lines run while a command expands. */
export interface ExpandContext {
  /** Whether the command's project folder is trusted (user-level commands always may run lines). */
  trusted: boolean;
  /** The workspace (for `@path` mentions of the command's own file). */
  workspace: string;
  /** Run one shell line through navi's approval and sandbox; returns the text to inline. Absent: lines are not run. */
  run?(command: string): Promise<string>;
}

const SHELL = /!`([^`\n]+)`/g;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** A string list from a frontmatter value: a YAML list, or words separated by commas or spaces. */
export function stringList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") return value.split(/[,\s]+/).filter(Boolean);
  return undefined;
}

function firstLine(body: string): string {
  const line = body.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find(Boolean) ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

async function readCommand(folder: ProjectFolder, rel: string): Promise<CustomCommand> {
  const file = join(folder.path, "commands", rel);
  const outside = outsideProject(folder, file);
  if (outside) throw new Error(`${file}: ${outside}`);
  const fm = await parseFrontmatter(await readExtensionFile(file), file);
  const str = (key: string) => (typeof fm.data[key] === "string" ? (fm.data[key] as string) : undefined);
  return {
    name: rel.replace(/\.md$/, "").split("/").join(":"),
    file,
    folder,
    description: str("description") ?? firstLine(fm.body),
    argumentHint: str("argument-hint"),
    model: str("model"),
    allowedTools: stringList(fm.data["allowed-tools"]),
    body: fm.body,
    shellLines: [...fm.body.matchAll(SHELL)].map((m) => m[1]),
  };
}

/**
 * The command files of `folders` (highest precedence first: the first file of a name wins, and each
 * collision is one line). An unreadable file or bad frontmatter is one line naming the file and is skipped.
 */
export async function discoverCommands(
  folders: readonly ProjectFolder[],
): Promise<{ commands: CustomCommand[]; problems: string[] }> {
  const commands: CustomCommand[] = [];
  const problems: string[] = [];
  for (const folder of folders) {
    const dir = join(folder.path, "commands");
    for (const rel of listFiles(dir, { ext: ".md" })) {
      const segments = rel.replace(/\.md$/, "").split("/");
      if (!segments.every((s) => SEGMENT.test(s))) {
        problems.push(`${join(dir, rel)}: not a command name (letters, digits, _ . -); skipped`);
        continue;
      }
      let cmd: CustomCommand;
      try {
        cmd = await readCommand(folder, rel);
      } catch (err) {
        const msg = err instanceof FrontmatterError ? `${err.message}; skipped` : (err as Error).message;
        problems.push(msg.split("\n")[0]);
        continue;
      }
      const earlier = commands.find((c) => c.name === cmd.name);
      if (earlier) {
        problems.push(`command /${cmd.name} of ${cmd.file} is shadowed by ${earlier.file}`);
        continue;
      }
      commands.push(cmd);
    }
  }
  return { commands, problems };
}

/** Split command arguments like a shell would for `$1`..`$9`: words, or "quoted" / 'quoted' strings. */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2] ?? m[3]);
  }
  return out;
}

function substitute(text: string, args: string, words: string[]): string {
  return text.replace(
    /\$ARGUMENTS\b|\$([1-9])(?![0-9])/g,
    (_all, n) => (n ? words[Number(n) - 1] ?? "" : args),
  );
}

/**
 * Expand a command (or a skill's body) with `args`: `$ARGUMENTS` and `$1`..`$9` substituted (arguments are
 * appended as `ARGUMENTS: ...` when the body uses neither), each !`command` line run through `ctx.run` and its
 * output put in its place. Lines of an untrusted project folder are not run (a note says so). Text that
 * arguments or outputs bring in is not expanded again.
 */
export async function expandCommand(
  cmd: Pick<CustomCommand, "name" | "file" | "folder" | "body" | "model">,
  args: string,
  ctx: ExpandContext,
): Promise<Expansion> {
  const words = splitArguments(args);
  const notes: string[] = [];
  const mayRun = cmd.folder.level === "user" || ctx.trusted;
  let text = "";
  let last = 0;
  let skipped = 0;
  for (const m of cmd.body.matchAll(SHELL)) {
    text += substitute(cmd.body.slice(last, m.index), args, words);
    last = m.index + m[0].length;
    const line = substitute(m[1], args, words);
    if (!mayRun || !ctx.run) {
      skipped++;
      text += `[not run: !\`${line}\`]`;
    } else text += (await ctx.run(line)).trimEnd();
  }
  text += substitute(cmd.body.slice(last), args, words);
  if (skipped) {
    const why = mayRun ? "nobody can approve it here" : "this folder is not trusted (navi trust)";
    notes.push(`/${cmd.name}: ${skipped} shell line${skipped > 1 ? "s" : ""} not run: ${why}`);
  }
  const usesArgs = /\$ARGUMENTS\b|\$[1-9](?![0-9])/.test(cmd.body);
  if (args.trim() && !usesArgs) text = `${text.trimEnd()}\n\nARGUMENTS: ${args.trim()}`;
  if (selfMention(cmd, ctx.workspace)) {
    notes.push(`/${cmd.name} mentions its own file; it is attached once as text, not expanded again`);
  }
  return { text: text.trim(), notes, ...(cmd.model ? { model: cmd.model } : {}) };
}

function selfMention(cmd: Pick<CustomCommand, "file" | "body">, workspace: string): boolean {
  let own: string;
  try {
    own = Deno.realPathSync(cmd.file);
  } catch {
    return false;
  }
  for (const m of cmd.body.matchAll(/(^|\s)@([^\s@]+)/g)) {
    try {
      if (Deno.realPathSync(resolve(workspace, m[2])) === own) return true;
    } catch { /* not a file */ }
  }
  return false;
}
