/**
 * Extensions in the formats users already keep: custom slash commands (Markdown with YAML frontmatter in
 * `commands/` folders: `$ARGUMENTS`, `$1`..`$9`, !`command` lines) and Agent Skills (folders with a SKILL.md:
 * discovery, validation, the block that lists them for the model, activation). {@link Extensions} holds one
 * app's; {@link parseFrontmatter} reads the frontmatter of any such Markdown file (subagents use it too).
 * @module
 */
export { Extensions } from "./catalog.ts";
export {
  type CustomCommand,
  discoverCommands,
  expandCommand,
  type ExpandContext,
  type Expansion,
  splitArguments,
  stringList,
} from "./commands.ts";
export { listFiles, MAX_EXTENSION_BYTES, outsideProject, readExtensionFile } from "./files.ts";
export { type Frontmatter, FrontmatterError, parseFrontmatter } from "./frontmatter.ts";
export { runShellLine, type ShellLineContext } from "./shell.ts";
export {
  discoverSkills,
  listedSkills,
  loadSkillBody,
  type Skill,
  SKILL_NAME,
  type SkillBody,
  SKILLS_OPEN,
  skillsBlock,
} from "./skills.ts";
