import { z } from "zod";
import { defineTool, ToolError } from "../core/mod.ts";

export default defineTool({
  name: "skill",
  description: [
    "- Activates an Agent Skill listed in <available-skills> and returns its instructions.",
    "- The result holds the body of its SKILL.md, its folder and the files in it.",
    "- Call it before working on a task that matches a skill's description, then follow the instructions; read",
    "the files it mentions (relative to its folder) with read_file, run its scripts with bash.",
  ].join("\n"),
  parameters: z.object({
    name: z.string().min(1).max(64).describe("The skill's name, as listed."),
  }),
  approval: "read_only",
  concurrencySafe: true,
  timeoutMs: 30_000,
  async handler({ name }, ctx) {
    if (!ctx.skills) throw new ToolError("No skills are available in this conversation");
    let skill;
    try {
      skill = await ctx.skills.activate(name);
    } catch (err) {
      throw new ToolError((err as Error).message);
    }
    return {
      ok: true,
      name: skill.name,
      path: skill.path,
      folder: skill.dir,
      ...(skill.files.length ? { files: skill.files } : {}),
      instructions: skill.body,
    };
  },
});
