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

function isPrompt(m: Message): boolean {
  const text = contentText(m);
  return m.role === "user" && !/^<(system-reminder|project-instructions|conversation-summary)>/.test(text);
}

/** How long ago a session was used: its file's time before this process touched it. */
export function sessionAge(updated: number, now = Date.now()): string {
  return formatAge(now - updated);
}

/**
 * What a resume prints: id, age (the time the picker shows), message count, and the last exchange: the last
 * prompt and its own answer (the last text after it), rendered by `render` when given (markdown).
 */
export function resumeSummary(
  session: Session,
  opts: { style: Style; now?: number; render?: (markdown: string) => string[] | undefined },
): string {
  const { style } = opts;
  const msgs = session.messages.filter((m) => m.role !== "system");
  const age = sessionAge(session.lastActive ?? Date.parse(session.meta.created), opts.now);
  const lines = [style.dim(`resumed ${session.meta.id} · ${age} · ${msgs.length} messages`)];
  let last = msgs.length - 1;
  while (last >= 0 && !isPrompt(msgs[last])) last--;
  if (last < 0) return lines.join("\n");
  lines.push(`${style.bold("›")} ${printable(shorten(contentText(msgs[last]), 200))}`);
  const answer = msgs.slice(last + 1).reverse().find((m) => m.role === "assistant" && contentText(m).trim());
  if (!answer) return [...lines, style.dim("⎿ (no answer)")].join("\n");
  const text = contentText(answer).trim();
  const rows = opts.render?.(text) ?? text.split("\n").map((l) => printable(shorten(l, 200)));
  const shown = rows.slice(0, 6);
  if (rows.length > 6) shown.push(style.dim(`… ${rows.length - 6} more lines`));
  lines.push(...shown.map((l, i) => `${i === 0 ? "⎿" : " "} ${l}`));
  return lines.join("\n");
}

/** What picking a session needs: a key-driven list on a terminal, else a numbered list and a line. */
export interface PickIO {
  ask(prompt: string): Promise<string | undefined>;
  /** Let the user move through `rows` with the arrow keys; the index picked, or undefined. */
  choose?(rows: string[], opts: { title: string }): Promise<number | undefined>;
  out: Sink;
  style: Style;
}

/** Show recent sessions of this workspace and let the user pick one to resume (arrow keys on a terminal). */
export async function pickSession(sessions: SessionSummary[], io: PickIO): Promise<string | undefined> {
  const { out, style } = io;
  if (!sessions.length) {
    out.write("no saved sessions in this workspace\n");
    return undefined;
  }
  const recent = sessions.slice(0, 9);
  const now = Date.now();
  const rows = table(recent.map((s, i) => [
    String(i + 1),
    s.id,
    sessionAge(Date.parse(s.updated ?? s.created), now),
    `${s.messages} msgs`,
    printable(shorten(s.first_prompt, 60)),
  ])).split("\n");
  if (io.choose) {
    const i = await io.choose(rows, { title: "resume which? (↑↓ move · Enter resume · Esc cancel)" });
    return i === undefined ? undefined : recent[i].id;
  }
  out.write(rows.map((r) => r.replace(/^\d+/, (n) => style.bold(n))).join("\n") + "\n");
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
