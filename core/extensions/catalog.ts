// The commands and skills of one app: found once at start-up, found again when their folders change.
import { join } from "node:path";
import type { ProjectFolder, TrustItem } from "../project/mod.ts";
import { type CustomCommand, discoverCommands } from "./commands.ts";
import { discoverSkills, loadSkillBody, type Skill, type SkillBody } from "./skills.ts";

/** The custom commands and Agent Skills of the folders of a project layer. */
export class Extensions {
  /** The folders read, highest precedence first. */
  readonly folders: readonly ProjectFolder[];
  /** The commands, highest precedence first. */
  commands: CustomCommand[] = [];
  /** The skills, highest precedence first. */
  skills: Skill[] = [];
  /** One line per file skipped or name shadowed, from the last scan. */
  problems: string[] = [];
  #stamp = "";

  private constructor(folders: readonly ProjectFolder[]) {
    this.folders = folders;
  }

  /** Find the commands and skills of `folders` (nothing loads when none of them has any). */
  static async load(folders: readonly ProjectFolder[]): Promise<Extensions> {
    const ext = new Extensions(folders);
    await ext.#scan();
    return ext;
  }

  /** No folders, no commands, no skills. */
  static empty(): Extensions {
    return new Extensions([]);
  }

  async #scan(): Promise<void> {
    this.#stamp = this.#currentStamp();
    const [c, s] = await Promise.all([discoverCommands(this.folders), discoverSkills(this.folders)]);
    this.commands = c.commands;
    this.skills = s.skills;
    this.problems = [...c.problems, ...s.problems];
  }

  #currentStamp(): string {
    const parts: string[] = [];
    for (const f of this.folders) {
      for (const sub of ["commands", "skills"]) {
        try {
          parts.push(String(Deno.statSync(join(f.path, sub)).mtime?.getTime()));
        } catch {
          parts.push("-");
        }
      }
    }
    return parts.join(",");
  }

  /**
   * Scan again when a `commands/` or `skills/` folder changed since the last scan (a few stats otherwise);
   * returns the skills that are new since then.
   */
  async refresh(opts: { force?: boolean } = {}): Promise<Skill[]> {
    if (!opts.force && this.#currentStamp() === this.#stamp) return [];
    const before = new Set(this.skills.map((s) => s.name));
    await this.#scan();
    return this.skills.filter((s) => !before.has(s.name));
  }

  /** The command named `name` (without the slash). */
  command(name: string): CustomCommand | undefined {
    return this.commands.find((c) => c.name === name);
  }

  /** The skill named `name`. */
  skill(name: string): Skill | undefined {
    return this.skills.find((s) => s.name === name);
  }

  /** The instructions of skill `name` for the model; throws a one-line Error when the model may not load it. */
  async activate(name: string): Promise<SkillBody> {
    const skill = this.skill(name);
    if (!skill) {
      const known = this.skills.filter((s) => s.modelInvocable).map((s) => s.name);
      throw new Error(
        `no skill named ${JSON.stringify(name)}${known.length ? `; skills: ${known.join(", ")}` : ""}`,
      );
    }
    if (!skill.modelInvocable) throw new Error(`skill ${name} is activated by the user only (/${name})`);
    return await loadSkillBody(skill);
  }

  /** What the project's commands and skills would run (their !`...` lines), for the trust prompt. */
  runnables(): TrustItem[] {
    const items: TrustItem[] = [];
    for (const c of this.commands) {
      if (c.folder.level !== "project") continue;
      for (const line of c.shellLines) {
        items.push({ kind: "command", what: `/${c.name}: !\`${line}\``, file: c.file, name: `/${c.name}` });
      }
    }
    for (const s of this.skills) {
      if (s.folder.level !== "project") continue;
      for (const line of s.shellLines) {
        items.push({ kind: "skill", what: `/${s.name}: !\`${line}\``, file: s.file, name: `/${s.name}` });
      }
    }
    return items;
  }
}
