import { parsePromptArgs, type PromptCommand, promptUsage } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";

/** The prompt rows' name prefix. */
const PREFIX = "/mcp:";

/**
 * MCP prompts as slash commands: `/mcp:<server>:<prompt> [args]` expands the prompt (`run`) and sends the
 * result as a user turn. Arguments are `name=value` or bare values in order; missing required ones are asked.
 */
export function promptSlashCommands(
  prompts: PromptCommand[],
  run: (cmd: PromptCommand, args: Record<string, string>) => Promise<string>,
): SlashCommand[] {
  return prompts.map((cmd) => ({
    name: cmd.name,
    args: promptUsage(cmd),
    help: cmd.description,
    group: "MCP prompts",
    run: async (text, ctx) => {
      const { values, missing, unknown } = parsePromptArgs(text, cmd.arguments);
      if (unknown.length) {
        const known = cmd.arguments.map((a) => a.name).join(", ") || "no arguments";
        ctx.out.write(`${cmd.name} has no argument ${unknown.join(", ")} (it takes ${known})\n`);
        return;
      }
      for (const name of missing) {
        const arg = cmd.arguments.find((a) => a.name === name)!;
        const question = `${name}${arg.description ? ` (${arg.description})` : ""}: `;
        const answer = (await ctx.ask(question))?.trim() ?? "";
        if (!answer) {
          ctx.out.write(`${cmd.name} needs ${name}: ${cmd.name} ${promptUsage(cmd)}\n`);
          return;
        }
        values[name] = answer;
      }
      await ctx.submit(await run(cmd, values));
    },
  }));
}

/** Replace the MCP prompt rows of `commands` (in place, before `/exit`) with `rows`. */
export function replacePromptRows(commands: SlashCommand[], rows: SlashCommand[]): void {
  for (let i = commands.length - 1; i >= 0; i--) {
    if (commands[i].name.startsWith(PREFIX)) commands.splice(i, 1);
  }
  const exit = commands.findIndex((c) => c.name === "/exit");
  commands.splice(exit < 0 ? commands.length : exit, 0, ...rows);
}
