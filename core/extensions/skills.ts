// Agent Skills: folders with a SKILL.md (the open specification, plus Claude Code's invocation switches),
// the block that lists them for the model, and the body loaded when a skill is activated.
import { join } from "node:path";
import type { ProjectFolder } from "../project/mod.ts";
import { stringList } from "./commands.ts";
import { listFiles, outsideProject, readExtensionFile } from "./files.ts";
import { FrontmatterError, parseFrontmatter } from "./frontmatter.ts";

/** One skill found. */
export interface Skill {
  /** `name` of its frontmatter (the folder's name). */
  name: string;
  /** `description`: what it does and when to use it. */
  description: string;
  /** Its SKILL.md (absolute). */
  file: string;
  /** Its folder (absolute): `scripts/`, `references/` and `assets/` are in it. */
  dir: string;
  /** The folder of skills it was found in (`level` says whose it is). */
  folder: ProjectFolder;
  /** `license`, as written. */
  license?: string;
  /** `compatibility`: what the skill needs of its environment, as written. */
  compatibility?: string;
  /** `metadata`: the author's own keys, as written. */
  metadata?: Record<string, unknown>;
  /** `allowed-tools`, as written (read, not honoured: every call goes through navi's approval). */
  allowedTools?: string[];
  /** false with `disable-model-invocation: true`: only the user activates it (`/<name>`). */
  modelInvocable: boolean;
  /** false with `user-invocable: false`: no `/<name>` command; only the model activates it. */
  userInvocable: boolean;
  /** The SKILL.md of a user skill of the same name this project skill overrides. */
  overrides?: string;
  /** The commands of its !`...` lines (run only when the user types `/<name>`). */
  shellLines: string[];
}

/** A skill's instructions, as activation puts them into the conversation. */
export interface SkillBody {
  /** The skill's name. */
  name: string;
  /** Its SKILL.md. */
  path: string;
  /** Its folder; the files it mentions are relative to it. */
  dir: string;
  /** The body of SKILL.md (without the frontmatter). */
  body: string;
  /** The files in its folder besides SKILL.md (relative paths, at most 50). */
  files: string[];
}

/** The spec's name rule: 1-64 characters of a-z, 0-9 and single hyphens, not at either end. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function keyLine(text: string, key: string): number {
  const at = text.split("\n").findIndex((l) => l.startsWith(`${key}:`));
  return at < 0 ? 1 : at + 1;
}

async function readSkill(folder: ProjectFolder, dirName: string): Promise<Skill> {
  const dir = join(folder.path, "skills", dirName);
  const file = join(dir, "SKILL.md");
  const outside = outsideProject(folder, dir);
  if (outside) throw new Error(`${dir}: ${outside}`);
  const text = await readExtensionFile(file);
  const fm = await parseFrontmatter(text, file);
  const bad = (key: string, why: string) => new FrontmatterError(file, keyLine(text, key), `${key}: ${why}`);
  const { name, description } = fm.data;
  if (typeof name !== "string" || !name) {
    throw bad("name", "missing (the frontmatter needs name and description)");
  }
  if (name.length > 64 || !SKILL_NAME.test(name)) {
    throw bad(
      "name",
      `${JSON.stringify(name.slice(0, 80))} is not a skill name (a-z, 0-9 and -, at most 64)`,
    );
  }
  if (name !== dirName) throw bad("name", `${name} does not match its folder ${dirName}`);
  if (typeof description !== "string" || !description.trim()) throw bad("description", "missing");
  if (description.length > 1024) throw bad("description", `${description.length} characters; at most 1024`);
  const str = (key: string) => (typeof fm.data[key] === "string" ? (fm.data[key] as string) : undefined);
  const meta = fm.data.metadata;
  return {
    name,
    description: description.trim(),
    file,
    dir,
    folder,
    license: str("license"),
    compatibility: str("compatibility"),
    metadata: meta && typeof meta === "object" && !Array.isArray(meta)
      ? meta as Record<string, unknown>
      : undefined,
    allowedTools: stringList(fm.data["allowed-tools"]),
    modelInvocable: fm.data["disable-model-invocation"] !== true,
    userInvocable: fm.data["user-invocable"] !== false,
    shellLines: [...fm.body.matchAll(/!`([^`\n]+)`/g)].map((m) => m[1]),
  };
}

function skillDirs(folder: ProjectFolder): string[] {
  const dir = join(folder.path, "skills");
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.startsWith(".")) continue;
      if (e.isDirectory || e.isSymlink) out.push(e.name);
    }
  } catch { /* no skills folder */ }
  return out.sort();
}

/**
 * The skills of `folders` (highest precedence first). A project skill overrides a user skill of the same
 * name; an invalid SKILL.md is one line (`file:line: problem`) and is skipped; a project skill folder whose
 * real path is outside the repository is skipped with one line.
 */
export async function discoverSkills(
  folders: readonly ProjectFolder[],
): Promise<{ skills: Skill[]; problems: string[] }> {
  const skills: Skill[] = [];
  const problems: string[] = [];
  for (const folder of folders) {
    for (const name of skillDirs(folder)) {
      let skill: Skill;
      try {
        skill = await readSkill(folder, name);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue;
        const msg = err instanceof FrontmatterError ? `${err.message}; skipped` : (err as Error).message;
        problems.push(msg.split("\n")[0]);
        continue;
      }
      const earlier = skills.find((s) => s.name === skill.name);
      if (!earlier) skills.push(skill);
      else if (earlier.folder.level === "project" && folder.level === "user") {
        earlier.overrides ??= skill.file;
      } else problems.push(`skill ${skill.name} of ${skill.file} is shadowed by ${earlier.file}`);
    }
  }
  return { skills, problems };
}

/** Read an activated skill's SKILL.md again (it may have changed) and list its folder's files. */
export async function loadSkillBody(skill: Skill): Promise<SkillBody> {
  const fm = await parseFrontmatter(await readExtensionFile(skill.file), skill.file);
  const files = listFiles(skill.dir, { ext: "", limit: 51 }).filter((f) => f !== "SKILL.md").slice(0, 50);
  return { name: skill.name, path: skill.file, dir: skill.dir, body: fm.body.trim(), files };
}

/** The tag that opens the skills block. */
export const SKILLS_OPEN = "<available-skills>";

/**
 * The block of the first messages that lists the skills the model may activate (name, description, path),
 * sorted by name so its bytes stay the same; at most `capBytes`, with a marker saying how many were left out.
 */
export function skillsBlock(
  skills: readonly Skill[],
  opts: { capBytes: number; display?: (path: string) => string },
): { text: string; listed: string[]; cut: number } {
  const usable = skills.filter((s) => s.modelInvocable).sort((a, b) => (a.name < b.name ? -1 : 1));
  if (!usable.length) return { text: "", listed: [], cut: 0 };
  const head = [
    SKILLS_OPEN,
    "Agent Skills: instructions for particular tasks, loaded when needed. When a task matches a skill's",
    "description, activate the skill first: call the `skill` tool with its name (or read its SKILL.md). Files a",
    "skill mentions (scripts/, references/, assets/) are relative to its folder; read or run them as it says.",
  ];
  const close = "</available-skills>";
  const enc = new TextEncoder();
  let size = enc.encode([...head, close].join("\n")).length + 120;
  const lines: string[] = [];
  const listed: string[] = [];
  for (const s of usable) {
    const line = `- ${s.name}: ${s.description.replace(/\s+/g, " ")} (${opts.display?.(s.file) ?? s.file})`;
    const bytes = enc.encode(line).length + 1;
    if (size + bytes > opts.capBytes) break;
    size += bytes;
    lines.push(line);
    listed.push(s.name);
  }
  const cut = usable.length - listed.length;
  if (cut) lines.push(`[... ${cut} more skills not listed: the list is capped at 2% of the context window]`);
  return { text: [...head, ...lines, close].join("\n"), listed, cut };
}

/** The names a skills block lists (to tell which skills a resumed conversation already knows). */
export function listedSkills(text: string): string[] {
  const at = text.indexOf(SKILLS_OPEN);
  if (at < 0) return [];
  return [...text.slice(at).matchAll(/^- ([a-z0-9-]+): /gm)].map((m) => m[1]);
}
