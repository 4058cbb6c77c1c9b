// Project instructions: AGENTS.md (or CLAUDE.md) files that tell the model how to work in a repository.
import { join, resolve } from "node:path";
import { dirsDown, gitRoot } from "../workspace/mod.ts";

/** The most instruction text a session carries (all files together), in bytes. */
export const INSTRUCTIONS_CAP_BYTES = 32 * 1024;

/** One instruction file found. */
export interface InstructionFile {
  /** Absolute path. */
  path: string;
  /** Its text. */
  text: string;
}

/** What `loadInstructions` found and the message text made of it. */
export interface Instructions {
  /** The files, in the order they appear: the user's own, then the repository root down to the workspace. */
  files: InstructionFile[];
  /** The message that carries them (empty when there are none). */
  text: string;
  /** Bytes left out because of the cap (0 when nothing was cut). */
  cutBytes: number;
}

const OPEN = "<project-instructions>";
const CLOSE = "</project-instructions>";

function readIfFile(path: string): string | undefined {
  try {
    return Deno.statSync(path).isFile ? Deno.readTextFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The instruction files that apply in `workspace`: `$NAVI_HOME/AGENTS.md` (the user's own), then from the git
 * root (or the workspace itself outside a repository) down to the workspace, per directory its `AGENTS.md`,
 * or its `CLAUDE.md` when it has none.
 */
export function findInstructionFiles(opts: { workspace: string; home: string }): InstructionFile[] {
  const files: InstructionFile[] = [];
  const own = join(opts.home, "AGENTS.md");
  const ownText = readIfFile(own);
  if (ownText !== undefined) files.push({ path: own, text: ownText });
  const workspace = resolve(opts.workspace);
  for (const dir of dirsDown(gitRoot(workspace) ?? workspace, workspace)) {
    for (const name of ["AGENTS.md", "CLAUDE.md"]) {
      const path = join(dir, name);
      const text = readIfFile(path);
      if (text === undefined) continue;
      files.push({ path, text });
      break;
    }
  }
  return files;
}

const encoder = new TextEncoder();

/** Cut `text` to at most `bytes` UTF-8 bytes, at a character boundary. */
function cutToBytes(text: string, bytes: number): string {
  const encoded = encoder.encode(text);
  if (encoded.length <= bytes) return text;
  return new TextDecoder().decode(encoded.subarray(0, bytes)).replace(/\uFFFD$/, "");
}

/**
 * The message text for `files`: each file under its path as a heading, capped at `capBytes` (32 KiB) in all;
 * where the cap cuts, a visible marker says how much of which files was left out.
 */
export function instructionsText(files: InstructionFile[], capBytes = INSTRUCTIONS_CAP_BYTES): Instructions {
  if (!files.length) return { files, text: "", cutBytes: 0 };
  const sections = files.map((f) => `# ${f.path}\n\n${f.text.trimEnd()}\n`);
  const whole = sections.join("\n");
  const size = encoder.encode(whole).length;
  let body = whole;
  let cutBytes = 0;
  if (size > capBytes) {
    body = cutToBytes(whole, capBytes);
    cutBytes = size - encoder.encode(body).length;
    const from = files.find((_f, i) => encoder.encode(sections.slice(0, i + 1).join("\n")).length > capBytes);
    body = `${body.trimEnd()}\n\n[... ${cutBytes} more bytes of project instructions cut here (the ${
      INSTRUCTIONS_CAP_BYTES / 1024
    } KiB cap), from ${from?.path} on]\n`;
  }
  const text = [
    OPEN,
    "Instructions for this project from its AGENTS.md files (the user's own first, then from the repository",
    "root down to the working directory; later files are more specific). Follow them.",
    "",
    body.trimEnd(),
    CLOSE,
  ].join("\n");
  return { files, text, cutBytes };
}

/** Find and format the instructions for a session in `workspace`. */
export function loadInstructions(opts: { workspace: string; home: string }): Instructions {
  return instructionsText(findInstructionFiles(opts));
}

/** The openings of the message after the system prompt: project instructions, else the skills block. */
const HEAD_OPENINGS = [OPEN, "<available-skills>"];

/**
 * Whether a message is the project-instructions message navi puts after the system prompt (the instructions
 * and the skills block, or either alone).
 */
export function isInstructionsMessage(message: { role: string; content?: unknown }): boolean {
  const { content } = message;
  return message.role === "user" && typeof content === "string" &&
    HEAD_OPENINGS.some((o) => content.startsWith(o));
}
