import { summarizeConversation, summaryMessage } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";

/** REPL row: `/compact` summarizes the conversation and continues in a new one that starts from the summary. */
export function compactSlashCommand(): SlashCommand {
  return {
    name: "/compact",
    help: "summarize the conversation and continue in a new one that starts from the summary",
    run: async (_a, ctx) => {
      const { agent, llm } = ctx.conversation();
      const old = agent.session.meta.id;
      const summary = await summarizeConversation(llm.chat, agent.session.messages, ctx.signal);
      if (ctx.signal.aborted || !summary) {
        ctx.out.write("compact cancelled; the conversation is unchanged\n");
        return;
      }
      ctx.newConversation();
      ctx.conversation().agent.session.addMessage(summaryMessage(old, summary));
      ctx.out.write(ctx.style.dim(`compacted ${old} into this conversation`) + "\n");
    },
  };
}
