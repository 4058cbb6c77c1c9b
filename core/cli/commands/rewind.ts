// Rewind and fork at the terminal: `/rewind` (and Esc Esc), `/fork`, and `navi rewind <session>`.
import { join } from "node:path";
import {
  type CheckpointRecord,
  CheckpointStore,
  type FileVersion,
  type NaviApp,
  readChanges,
  readSession,
  resolveSessionId,
  type RestoreFile,
  RewindError,
  type RewindResult,
  rewindSession,
  Session,
  storeDir,
  turnRows,
} from "../../mod.ts";
import type { Sink } from "../../output/mod.ts";
import { diffView } from "../diff_view.ts";
import type { SlashCommand, SlashContext } from "../slash.ts";
import { shorten, type Style, table } from "../style.ts";
import { printable } from "../text_width.ts";

/** When a checkpoint was taken, as local time (with the date when it was not today). */
function when(at: string, now = new Date()): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return d.toDateString() === now.toDateString() ? time : `${day} ${time}`;
}

function what(row: CheckpointRecord): string {
  if (row.kind === "rewind") {
    return `(rewind to turn ${row.to}: ${row.restored === "both" ? "code and conversation" : row.restored})`;
  }
  return printable(shorten(row.prompt ?? "", 60));
}

function filesCell(files: string[] | undefined): string {
  if (files === undefined) return "?";
  if (!files.length) return "-";
  const shown = files.slice(0, 2).map((f) => printable(shorten(f, 30))).join(", ");
  return files.length > 2 ? `${shown} +${files.length - 2}` : shown;
}

/** The checkpoints as a table: number, time, files changed after it, prompt (or what a rewind did). */
export function turnTable(rows: (CheckpointRecord & { files?: string[] })[], style: Style): string {
  return table([
    ["#", "TIME", "FILES", "PROMPT"].map(style.bold),
    ...rows.map((r) => [String(r.n), when(r.at), filesCell(r.files), what(r)]),
  ]);
}

/** The rows of a session (files from its store; `files` absent and a warning when the store is unusable). */
export function sessionRows(
  checkpoints: CheckpointRecord[],
  store: CheckpointStore,
  id: string,
): { rows: (CheckpointRecord & { files?: string[] })[]; warnings: string[] } {
  try {
    const { changes, warnings } = readChanges(store, id);
    return { rows: turnRows(checkpoints, changes), warnings };
  } catch (err) {
    return { rows: checkpoints, warnings: [(err as Error).message] };
  }
}

function text(store: CheckpointStore, v: FileVersion | null, file?: string): string | null | undefined {
  try {
    const bytes = file ? Deno.readFileSync(file) : v && "hash" in v ? store.get(v.hash) : undefined;
    if (!bytes) return v === null ? null : undefined;
    return bytes.includes(0) ? undefined : new TextDecoder().decode(bytes);
  } catch {
    return v === null || file ? null : undefined;
  }
}

/** What changed in a file since navi left it, for the question before overwriting it. */
export function changedSinceLines(
  file: RestoreFile,
  opts: { store: CheckpointStore; root: string; style: Style },
): string[] {
  const { style } = opts;
  const left = text(opts.store, file.left);
  const now = file.now === null ? null : text(opts.store, file.now, join(opts.root, file.path));
  const head = style.yellow(`${printable(file.path)} changed since navi left it:`);
  if (now === null) return [head, "  it was deleted"];
  if (left === undefined || now === undefined) return [head, "  (binary, or navi did not keep its content)"];
  const view = diffView({ kind: "diff", path: file.path, before: left ?? "", after: now }, { style });
  const lines = view.lines.length > 40
    ? [...view.lines.slice(0, 40), style.dim(`… ${view.lines.length - 40} more lines`)]
    : view.lines;
  return [head + (left === null ? " (navi had removed it)" : ""), ...lines];
}

/** The lines that say what a rewind did and how to undo it. */
export function rewindSummary(
  result: RewindResult,
  opts: { to: number; id: string; style: Style },
): string[] {
  const { style } = opts;
  const lines = result.warnings.map((w) => style.yellow(`navi: warning: ${w}`));
  const n = result.restored.length;
  if (n) {
    const names = result.restored.slice(0, 5).join(", ") + (n > 5 ? ` and ${n - 5} more` : "");
    lines.push(`restored ${n} file${n === 1 ? "" : "s"} to the end of turn ${opts.to}: ${names}`);
  }
  if (result.kept.length) lines.push(`kept as they are now: ${result.kept.join(", ")}`);
  if (result.conversation) lines.push(`the conversation is back at the end of turn ${opts.to}`);
  if (!n && !result.conversation && !result.kept.length) {
    lines.push("nothing to rewind: the files are as they were");
  }
  lines.push(
    style.dim(
      `undo: navi rewind ${opts.id} --to ${result.checkpoint - 1} (or /rewind ${result.checkpoint - 1})`,
    ),
  );
  return lines;
}

const MODES = [
  { label: "code and conversation", code: true, conversation: true },
  { label: "conversation only", code: false, conversation: true },
  { label: "code only", code: true, conversation: false },
];

async function pickTurn(args: string, ctx: SlashContext, rows: { n: number }[]): Promise<number | undefined> {
  const last = rows.at(-1)?.n ?? 0;
  const answer = args.trim() ||
    (await ctx.ask(`rewind to the end of which turn? [0-${last}; 0 is before the first; Enter cancels] `))
      ?.trim();
  if (!answer) return undefined;
  const to = Number(answer);
  if (!Number.isInteger(to) || to < 0 || to > last) {
    ctx.out.write(`no turn ${answer}; the turns are 0 to ${last}\n`);
    return undefined;
  }
  return to;
}

/** REPL row: `/rewind [turn]`: list the turns, pick one, restore code and/or conversation. */
export function rewindSlashCommand(): SlashCommand {
  return {
    name: "/rewind",
    args: "[turn]",
    help: "go back to the end of a turn: code and conversation, conversation only, or code only (Esc Esc)",
    run: async (args, ctx) => {
      const convo = ctx.conversation();
      const session = convo.agent.session;
      const store = convo.checkpoints;
      if (!session.checkpoints.length) return void ctx.out.write("nothing to rewind yet: no turn has run\n");
      const { rows, warnings } = sessionRows(session.checkpoints, store, session.meta.id);
      for (const w of warnings) ctx.out.write(ctx.style.yellow(`navi: warning: ${w}`) + "\n");
      ctx.out.write(turnTable(rows, ctx.style) + "\n");
      const to = await pickTurn(args, ctx, rows);
      if (to === undefined) return;
      ctx.out.write(MODES.map((m, i) => `${ctx.style.bold(String(i + 1))}) ${m.label}`).join("   ") + "\n");
      const choice = Number((await ctx.ask("restore what? [1-3; Enter cancels] "))?.trim());
      const mode = MODES[choice - 1];
      if (!mode) return;
      const root = await Deno.realPath(convo.workspace).catch(() => convo.workspace);
      const result = await convo.rewind({
        to,
        code: mode.code,
        conversation: mode.conversation,
        confirm: async (file) => {
          ctx.out.write(changedSinceLines(file, { store, root, style: ctx.style }).join("\n") + "\n");
          const yes = await ctx.ask(
            `overwrite ${printable(file.path)} with its state at the end of turn ${to}? [y/N] `,
          );
          return /^y(es)?$/i.test(yes?.trim() ?? "");
        },
      });
      ctx.out.write(rewindSummary(result, { to, id: session.meta.id, style: ctx.style }).join("\n") + "\n");
    },
  };
}

/** REPL row: `/fork [turn]`: continue in a new session with this one's history (up to a turn). */
export function forkSlashCommand(): SlashCommand {
  return {
    name: "/fork",
    args: "[turn]",
    help:
      "continue in a new session with this conversation (up to the end of a turn); this one stays as it is",
    run: (args, ctx) => {
      const from = ctx.conversation().agent.session.meta.id;
      const turn = args.trim() ? Number(args.trim()) : undefined;
      const last = ctx.conversation().agent.session.checkpoints.at(-1)?.n ?? 0;
      if (turn !== undefined && (!Number.isInteger(turn) || turn < 0 || turn > last)) {
        return void ctx.out.write(`no turn ${args.trim()}; the turns are 0 to ${last}\n`);
      }
      if (!ctx.fork) return void ctx.out.write("/fork is not available here\n");
      ctx.fork(turn);
      const id = ctx.conversation().agent.session.meta.id;
      ctx.out.write(
        ctx.style.dim(
          `forked ${from}${
            turn === undefined ? "" : ` at turn ${turn}`
          } into ${id}; navi --resume ${from} goes back to the original`,
        ) + "\n",
      );
    },
  };
}

/** Lines typed on standard input (a terminal or a pipe), one per question; undefined at the end of input. */
function stdinLines(): { ask(prompt: string, err: Sink): Promise<string | undefined>; close(): void } {
  let reader: ReadableStreamDefaultReader<string> | undefined;
  let buffered = "";
  let ended = false;
  return {
    async ask(prompt, err) {
      err.write(prompt);
      reader ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
      while (!buffered.includes("\n") && !ended) {
        const { value, done } = await reader.read();
        if (done) ended = true;
        else buffered += value;
      }
      if (!buffered) return undefined;
      const nl = buffered.indexOf("\n");
      const line = nl < 0 ? buffered : buffered.slice(0, nl);
      buffered = nl < 0 ? "" : buffered.slice(nl + 1);
      if (!Deno.stdin.isTerminal()) err.write("\n");
      return line.replace(/\r$/, "");
    },
    close: () => void reader?.cancel().catch(() => {}),
  };
}

/** Options of `navi rewind`. */
export interface RewindCliOptions {
  list?: boolean;
  json?: boolean;
  to?: string;
  code?: boolean;
  conversation?: boolean;
  yes?: boolean;
}

/** `navi rewind <session> --list | --to <turn> [--code|--conversation] [--yes]`; returns the exit status. */
export async function rewindCommand(
  app: NaviApp,
  idOrPrefix: string,
  opts: RewindCliOptions & { out: Sink; err: Sink; style: Style },
): Promise<number> {
  const id = resolveSessionId(app.home, idOrPrefix);
  const store = new CheckpointStore(storeDir(app.home, id));
  if (opts.list || opts.to === undefined) {
    const view = readSession(app.home, id);
    const { rows, warnings } = sessionRows(view.checkpoints, store, id);
    for (const w of warnings) opts.err.write(`navi: warning: ${w}\n`);
    if (opts.json) opts.out.write(JSON.stringify(rows, null, 2) + "\n");
    else opts.out.write((rows.length ? turnTable(rows, opts.style) : "no turns in this session yet") + "\n");
    return 0;
  }
  const to = Number(opts.to);
  if (!/^\d+$/.test(opts.to)) {
    throw new RewindError(`--to needs a turn number (0 is before the first), not ${JSON.stringify(opts.to)}`);
  }
  if (opts.code && opts.conversation) {
    throw new RewindError("--code and --conversation together are the default: give neither");
  }
  const { session } = Session.load(app.home, id, { redact: (t) => app.secrets.redact(t) });
  const input = stdinLines();
  try {
    const root = await Deno.realPath(session.meta.cwd).catch(() => {
      throw new RewindError(`the session's workspace ${session.meta.cwd} is gone`);
    });
    const result = await rewindSession(session, {
      to,
      code: !opts.conversation,
      conversation: !opts.code,
      root,
      store,
      confirm: async (file) => {
        if (opts.yes) return true;
        opts.err.write(changedSinceLines(file, { store, root, style: opts.style }).join("\n") + "\n");
        const answer = await input.ask(
          `overwrite ${printable(file.path)} with its state at the end of turn ${to}? [y/N] `,
          opts.err,
        );
        return /^y(es)?$/i.test(answer?.trim() ?? "");
      },
    });
    opts.out.write(rewindSummary(result, { to, id, style: opts.style }).join("\n") + "\n");
    return 0;
  } finally {
    input.close();
    session.close();
  }
}
