import type { ContextView } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { type Style, table } from "../style.ts";

const n = (x: number) => x.toLocaleString("en-US");

/** `/context`: the model's window, the next request's parts with their estimated tokens, and what is free. */
export function contextReport(view: ContextView, style: Style): string {
  const { limits, budget, parts, total } = view;
  const window = Number.isFinite(limits.contextWindow) ? n(limits.contextWindow) : "unknown";
  const rows = parts.map((p) => [p.part, n(p.tokens)]);
  rows.push([style.bold("total"), style.bold(n(total))]);
  const free = Number.isFinite(budget) ? Math.max(0, budget - total) : undefined;
  return [
    `window ${window} tokens (${limits.source}) · ${n(limits.maxOutputTokens)} kept for the answer · ` +
    `requests may carry ${Number.isFinite(budget) ? n(budget) : "any number of"} tokens`,
    table(rows),
    free === undefined
      ? ""
      : `free ${n(free)} tokens (${
        Math.round((free / budget) * 100)
      }%); over that, navi compacts the conversation`,
    style.dim(
      `estimates: bytes / 4 of what navi sends × ${
        view.ratio.toFixed(2)
      } (the provider's count of the last request)`,
    ),
  ].filter(Boolean).join("\n");
}

/** REPL rows: `/context [reload]` and `/init`. */
export function contextSlashCommands(): SlashCommand[] {
  return [{
    name: "/context",
    subcommands: ["reload"],
    help: "the context window and what fills it; reload re-reads the AGENTS.md files (breaks the cache once)",
    run: (args, ctx) => {
      const { agent } = ctx.conversation();
      if (args === "reload") {
        const instructions = ctx.instructions?.();
        if (!instructions) return;
        const changed = agent.keeper.replaceInstructions(instructions.text);
        const names = instructions.files.map((f) => f.path).join(", ") || "no AGENTS.md files";
        ctx.out.write(
          changed
            ? `project instructions reloaded (${names}); the next request re-sends the conversation once\n`
            : "no project instructions before or now; nothing changed\n",
        );
        return;
      }
      ctx.out.write(contextReport(agent.context(), ctx.style) + "\n");
    },
  }, {
    name: "/init",
    help: "ask the model to survey the repository and write a starter AGENTS.md (with your approval)",
    run: (_args, ctx) => ctx.submit(INIT_PROMPT),
  }];
}

/** What `/init` asks the model. */
export const INIT_PROMPT: string = [
  "Survey this repository and write a starter AGENTS.md at its root for coding agents working in it.",
  "Look at the layout, the build and test commands (package files, CI config, README), the code style and",
  "conventions you can see, and anything a newcomer would get wrong. Keep it short and concrete: the commands",
  "to build, test and lint; where things live; the rules to follow. If an AGENTS.md exists, improve it instead",
  "of replacing what is there. Write the file with write_file (or edit_file), then say what you wrote.",
].join(" ");
