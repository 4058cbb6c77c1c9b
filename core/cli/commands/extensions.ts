import type { CustomCommand, Skill } from "../../mod.ts";
import type { ExtensionControl, SlashCommand, SlashContext } from "../slash.ts";
import { type Style, table } from "../style.ts";

function whose(item: { folder: { level: string; kind: string } }): string {
  const { level, kind } = item.folder;
  return level === "user"
    ? `user${kind === "navi" ? "" : `, ${kind}`}`
    : `project${kind === "navi" ? "" : `, ${kind}`}`;
}

async function runExpanded(name: string, args: string, ctx: SlashContext): Promise<void> {
  const x = await ctx.extensions?.expand(`/${name}${args ? ` ${args}` : ""}`);
  if (!x) return void ctx.out.write(`/${name} is gone (its file was removed); try /help\n`);
  for (const note of x.notes) ctx.out.write(ctx.style.yellow(`navi: ${note}`) + "\n");
  const { llm } = ctx.conversation();
  const before = llm.overrides.model;
  if (x.model) llm.overrides.model = x.model;
  try {
    await ctx.submit(x.text);
  } finally {
    if (x.model) llm.overrides.model = before;
  }
}

/**
 * The slash rows of custom commands and user-invocable skills, minus names the built-in rows (`taken`) have;
 * each such collision is one line in `problems` (the built-in wins).
 */
export function extensionRows(
  items: { commands: readonly CustomCommand[]; skills: readonly Skill[] },
  taken: readonly string[],
): { rows: SlashCommand[]; problems: string[] } {
  const rows: SlashCommand[] = [];
  const problems: string[] = [];
  const add = (name: string, row: Omit<SlashCommand, "name">, file: string) => {
    if (taken.includes(`/${name}`) || rows.some((r) => r.name === `/${name}`)) {
      const winner = taken.includes(`/${name}`) ? "the built-in" : "the command file";
      return void problems.push(`/${name} of ${file} collides with ${winner} of that name, which wins`);
    }
    rows.push({ name: `/${name}`, ...row });
  };
  for (const c of items.commands) {
    add(c.name, {
      args: c.argumentHint,
      help: `${c.description || "(no description)"} (${whose(c)})`,
      group: "custom commands",
      run: (args, ctx) => runExpanded(c.name, args, ctx),
    }, c.file);
  }
  for (const s of items.skills.filter((s) => s.userInvocable)) {
    add(s.name, {
      args: "[args]",
      help: `${s.description} (${whose(s)})`,
      group: "skills",
      run: (args, ctx) => runExpanded(s.name, args, ctx),
    }, s.file);
  }
  return { rows, problems };
}

/** `/skills`: every skill with its source and who may activate it. */
export function skillsList(control: Pick<ExtensionControl, "skills" | "display">, style: Style): string {
  const skills = control.skills();
  if (!skills.length) {
    return "no skills (folders with a SKILL.md in .navi/skills, .claude/skills, .agents/skills or their user-level twins)";
  }
  const rows = skills.map((s) => [
    s.name,
    whose(s),
    !s.modelInvocable ? "user only" : !s.userInvocable ? "model only" : "model, /" + s.name,
    control.display(s.file) + (s.overrides ? style.dim(` (overrides ${control.display(s.overrides)})`) : ""),
  ]);
  return table([["SKILL", "FROM", "ACTIVATED BY", "SKILL.md"].map(style.bold), ...rows]);
}

/** `/skills [reload]`. */
export function skillsSlashCommand(): SlashCommand {
  return {
    name: "/skills",
    subcommands: ["reload"],
    help: "the Agent Skills found, where from and who activates them; reload scans the folders again",
    run: async (args, ctx) => {
      if (!ctx.extensions) return void ctx.out.write("no skills in this session\n");
      if (args === "reload") {
        for (const p of await ctx.extensions.reload()) {
          ctx.out.write(ctx.style.yellow(`navi: warning: ${p}`) + "\n");
        }
      }
      ctx.out.write(skillsList(ctx.extensions, ctx.style) + "\n");
    },
  };
}
