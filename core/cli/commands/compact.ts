import type { SlashCommand } from "../slash.ts";

/** REPL row: `/compact` replaces the conversation by a summary of it, in the same session, and shows the summary. */
export function compactSlashCommand(): SlashCommand {
  return {
    name: "/compact",
    help:
      "replace the conversation by a summary of it (same session); shows the summary and the tokens saved",
    run: async (_a, ctx) => {
      const { agent } = ctx.conversation();
      const done = await agent.compact(ctx.signal, { reason: "manual" });
      if (ctx.signal.aborted || !done) {
        ctx.out.write("compact cancelled; the conversation is unchanged\n");
        return;
      }
      ctx.out.write(`${ctx.style.bold("summary")}\n${done.summary}\n`);
      ctx.out.write(ctx.style.dim(`compacted: about ${done.before} -> ${done.after} tokens`) + "\n");
    },
  };
}
