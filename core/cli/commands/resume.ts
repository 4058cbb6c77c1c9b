import type { Message, Session, SessionSummary } from "../../mod.ts";
import type { Sink } from "../../output/mod.ts";
import type { SlashCommand } from "../slash.ts";
import { shorten, type Style, table } from "../style.ts";
import { printable } from "../text_width.ts";

/** How long ago, in one short unit: `just now`, `5 min ago`, `3 h ago`, `2 days ago`. */
export function formatAge(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "just now";
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

function contentText(m: Message | undefined): string {
  if (!m) return "";
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.content)) {
    return (m.content as { type: string; text?: string }[]).filter((p) => p.type === "text").map((p) =>
      p.text
    )
      .join(" ");
  }
  return "";
}

/** What a resume prints: id, age, message count, and the last exchange (the last prompt and answer). */
export function resumeSummary(session: Session, opts: { style: Style; now?: number }): string {
  const { style } = opts;
  const msgs = session.messages.filter((m) => m.role !== "system");
  let updated = Date.parse(session.meta.created);
  try {
    updated = Deno.statSync(session.file).mtime?.getTime() ?? updated;
  } catch { /* keep the creation time */ }
  const age = formatAge((opts.now ?? Date.now()) - updated);
  const lines = [style.dim(`resumed ${session.meta.id} · ${age} · ${msgs.length} messages`)];
  const lastUser = [...msgs].reverse().find((m) =>
    m.role === "user" && !contentText(m).startsWith("<system-reminder>")
  );
  const lastAnswer = [...msgs].reverse().find((m) => m.role === "assistant" && contentText(m).trim());
  if (lastUser) lines.push(`${style.bold("›")} ${printable(shorten(contentText(lastUser), 200))}`);
  if (lastAnswer) {
    const text = contentText(lastAnswer).trim().split("\n");
    const shown = text.slice(0, 4).map((l) => printable(shorten(l, 200)));
    if (text.length > 4) shown.push(style.dim(`… ${text.length - 4} more lines`));
    lines.push(...shown.map((l, i) => `${i === 0 ? "⎿" : " "} ${l}`));
  }
  return lines.join("\n");
}

/** Show recent sessions of this workspace, numbered, and ask which to resume. */
export async function pickSession(
  sessions: SessionSummary[],
  io: { ask(prompt: string): Promise<string | undefined>; out: Sink; style: Style },
): Promise<string | undefined> {
  const { out, style } = io;
  if (!sessions.length) {
    out.write("no saved sessions in this workspace\n");
    return undefined;
  }
  const recent = sessions.slice(0, 9);
  const now = Date.now();
  out.write(
    table(recent.map((s, i) => [
      style.bold(String(i + 1)),
      s.id,
      formatAge(now - Date.parse(s.created)),
      `${s.messages} msgs`,
      printable(shorten(s.first_prompt, 60)),
    ])) + "\n",
  );
  const answer = (await io.ask(`resume which? [1-${recent.length}, or an id prefix; Enter cancels] `))
    ?.trim();
  if (!answer) return undefined;
  const n = Number(answer);
  if (Number.isInteger(n) && n >= 1 && n <= recent.length) return recent[n - 1].id;
  return answer;
}

/** REPL row: `/resume [id]`: resume a saved session of this workspace (a picker without an id). */
export function resumeSlashCommand(): SlashCommand {
  return {
    name: "/resume",
    args: "[id]",
    help: "resume a saved session of this workspace (a numbered list without an id; id prefixes work)",
    run: async (args, ctx) => {
      const id = args.trim() || await pickSession(ctx.sessions(), ctx);
      if (!id) return;
      ctx.resume(id);
    },
  };
}
