import { listSessions } from "../../mod.ts";
import { makeStyle, shorten, table } from "../style.ts";

/** `navi sessions [--json]`: newest first, with id, time, cwd, message count and the first prompt. */
export function sessionsCommand(home: string, opts: { json?: boolean }): string {
  const sessions = listSessions(home);
  if (opts.json) return JSON.stringify(sessions, null, 2);
  if (!sessions.length) return "no sessions yet";
  const style = makeStyle(Deno.stdout.isTerminal());
  return table([
    ["ID", "CREATED", "MSGS", "CWD", "FIRST PROMPT"].map(style.bold),
    ...sessions.map((s) => [
      s.id,
      s.created.slice(0, 19).replace("T", " "),
      String(s.messages),
      s.cwd,
      shorten(s.first_prompt, 60),
    ]),
  ]);
}
