import { REASONING_EFFORTS, type ReasoningEffort } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";

/** REPL row: `/effort [level|default]`: the reasoning effort of the next requests. */
export function effortSlashCommand(): SlashCommand {
  return {
    name: "/effort",
    subcommands: [...REASONING_EFFORTS, "default"],
    help: "show or set the reasoning effort from the next request (default: back to config.json)",
    run: (args, { conversation, out }) => {
      const { llm } = conversation();
      if (args === "default") delete llm.overrides.effort;
      else if (args) {
        if (!(REASONING_EFFORTS as readonly string[]).includes(args)) {
          out.write(
            `unknown effort ${JSON.stringify(args)}; use ${REASONING_EFFORTS.join(", ")} or default\n`,
          );
          return;
        }
        llm.overrides.effort = args as ReasoningEffort;
      }
      let effort: string | undefined;
      try {
        effort = llm.current().effort;
      } catch (err) {
        return void out.write(`${(err as Error).message}\n`);
      }
      out.write(
        effort
          ? `reasoning effort: ${effort}${args ? " (from the next request)" : ""}\n`
          : "reasoning effort: not set (the provider's default)\n",
      );
    },
  };
}

/** REPL row: `/reasoning [on|off|show]`: reasoning streamed dimmed, one summary line, or the last in full. */
export function reasoningSlashCommand(): SlashCommand {
  return {
    name: "/reasoning",
    subcommands: ["on", "off", "show"],
    help:
      "reasoning as it streams (on), one summary line per answer (off), or the last reasoning in full (show)",
    run: (args, { conversation, out, style, reasoning }) => {
      if (args === "show") {
        const last = conversation().agent.session.messages.findLast((m) =>
          typeof (m._reasoning as { text?: unknown } | undefined)?.text === "string"
        );
        const text = (last?._reasoning as { text: string } | undefined)?.text;
        return void out.write(
          text ? style.dim(text.trimEnd()) + "\n" : "no reasoning in this conversation yet\n",
        );
      }
      if (args && args !== "on" && args !== "off") {
        return void out.write(`unknown option ${JSON.stringify(args)}; use on, off or show\n`);
      }
      if (reasoning && args) reasoning.shown = args === "on";
      const shown = reasoning?.shown ?? true;
      out.write(`reasoning: ${shown ? "on (streamed dimmed)" : "off (one summary line per answer)"}\n`);
    },
  };
}
