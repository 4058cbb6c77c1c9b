import type { ApprovalQuestion, Reply } from "../mod.ts";
import { diffView } from "./diff_view.ts";
import type { Key } from "./keys.ts";
import type { LineResult } from "./line_editor.ts";
import type { Style } from "./style.ts";
import type { KeySource, TermOut } from "./terminal.ts";
import { escapeControls as printable } from "../output/mod.ts";
import { middleEllipsis, textWidth, wrapText } from "./text_width.ts";
import { wrapRows } from "./wrap.ts";

/** What the approval prompt draws on and reads from. */
export interface ApprovalIO {
  input: KeySource;
  out: TermOut;
  style: Style;
  /** Ask for one line of text (what to do instead). */
  readLine(prompt: string): Promise<LineResult>;
}

interface Choice {
  key: string;
  label: string;
  reply: Reply;
  /** The label as the hint shows it (the prefix cut to fit one row). */
  shown?: string;
}

function choices(q: ApprovalQuestion, columns: number): Choice[] {
  const list: Choice[] = [
    { key: "y", label: "yes", reply: { answer: "yes" } },
    { key: "n", label: "no", reply: { answer: "no" } },
    {
      key: "a",
      label: q.outside !== undefined
        ? q.preview
          ? `always for ${q.tool}, outside the workspace too`
          : `always for ${q.tool} outside the workspace`
        : `always for ${q.tool}`,
      reply: { answer: "always" },
    },
  ];
  if (q.prefix && q.outside === undefined) {
    const prefix = printable(q.prefix);
    const words = "always for commands starting with ``";
    list.push({
      key: "p",
      label: `always for commands starting with \`${middleEllipsis(prefix, 60)}\``,
      shown: `always for commands starting with \`${
        middleEllipsis(prefix, Math.max(9, columns - 6 - words.length))
      }\``,
      reply: { answer: "always", prefix: q.prefix },
    });
  }
  return list;
}

/** The body of the question, its title naming the subagent whose call it is (`[reviewer] bash wants to run:`). */
function body(q: ApprovalQuestion, style: Style): { title: string; lines: string[] } {
  const b = callBody(q, style);
  return q.agent ? { ...b, title: `[${printable(q.agent)}] ${b.title}` } : b;
}

/** The body of the question: the whole command, a diff, a new file's first lines, or the arguments. */
function callBody(q: ApprovalQuestion, style: Style): { title: string; lines: string[] } {
  const where = q.outside !== undefined ? ` (outside the workspace: ${printable(q.outside)})` : "";
  if (q.preview?.kind === "diff") {
    const view = diffView(q.preview, { style });
    return {
      title: `${q.tool} wants to ${q.preview.before === null ? "" : "change "}${view.title}${where}`,
      lines: view.lines,
    };
  }
  if (q.outside !== undefined) {
    return { title: `${q.tool} wants to reach outside the workspace: ${printable(q.outside)}`, lines: [] };
  }
  if (typeof q.args.command === "string") {
    const rest = Object.entries(q.args).filter(([k]) => k !== "command");
    const lines = q.args.command.split("\n").map((l) => printable(l));
    if (rest.length) {
      lines.push(style.dim(printable(rest.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" "))));
    }
    return { title: `${q.tool} wants to run:`, lines };
  }
  const json = JSON.stringify(q.args, null, 2);
  if (json === "{}") return { title: `${q.tool} wants to run (no arguments)`, lines: [] };
  return { title: `${q.tool} wants to run with:`, lines: json.split("\n").map(printable) };
}

/**
 * The box a question's body is drawn in: the whole body when it fits the terminal, else a window onto it that
 * scrolls in place (arrows, PgUp/PgDn, Home/End). `seen` turns true once the last row has been on screen.
 */
class BodyBox {
  #rows: string[];
  #view: number;
  #top = 0;
  #out: TermOut;
  #style: Style;
  /** Rows drawn below the title by the last draw (the cursor is below them). */
  #drawn = 0;
  seen: boolean;
  /** `v` printed the body whole: no more scrolling. */
  whole = false;

  constructor(rows: string[], opts: { out: TermOut; style: Style; reserved: number }) {
    this.#rows = rows;
    this.#out = opts.out;
    this.#style = opts.style;
    this.#view = Math.max(3, opts.out.rows() - opts.reserved);
    if (rows.length <= this.#view) this.#view = rows.length;
    this.seen = rows.length <= this.#view;
  }

  get scrolls(): boolean {
    return !this.whole && this.#rows.length > this.#view;
  }

  /** Move the window by `by` rows (or to `to`); returns whether it moved. */
  scroll(opts: { by?: number; to?: number }): boolean {
    if (!this.scrolls) return false;
    const max = this.#rows.length - this.#view;
    const top = Math.max(0, Math.min(max, opts.to ?? this.#top + (opts.by ?? 0)));
    if (top === this.#top) return false;
    this.#top = top;
    return true;
  }

  get page(): number {
    return Math.max(1, this.#view - 1);
  }

  /** Draw (or redraw in place) the window, a position line when it scrolls, and `footer`. */
  draw(footer: string[], warning?: string): void {
    const out = this.#out;
    const style = this.#style;
    let text = this.#drawn ? `\x1b[${this.#drawn}A\r\x1b[J` : "";
    const shown = this.scrolls ? this.#rows.slice(this.#top, this.#top + this.#view) : this.#rows;
    if (this.#top + shown.length >= this.#rows.length) this.seen = true;
    const lines = [...shown];
    if (this.scrolls) {
      const end = this.#top + shown.length;
      const where = `lines ${this.#top + 1}-${end} of ${this.#rows.length}`;
      const how = this.seen ? "↑↓ PgUp PgDn scroll · v show all" : "↓ PgDn End to see the rest · v show all";
      lines.push(...this.#note(warning ? style.yellow(warning) : style.dim(`${where} · ${how}`)));
    } else if (warning) lines.push(...this.#note(style.yellow(warning)));
    lines.push(...footer);
    text += lines.map((l) => l + "\r\n").join("");
    out.write(text);
    this.#drawn = lines.length;
  }

  #note(text: string): string[] {
    return wrapRows(text, { columns: this.#out.columns(), first: "  ", rest: "  " });
  }

  /** `v`: print the body whole (it scrolls into the terminal's history), then `footer`. */
  showWhole(footer: string[]): void {
    this.whole = true;
    this.seen = true;
    const clear = this.#drawn ? `\x1b[${this.#drawn}A\r\x1b[J` : "";
    this.#out.write(clear + [...this.#rows, ...footer].map((l) => l + "\r\n").join(""));
    this.#drawn = footer.length;
  }
}

function hintRows(list: Choice[], opts: { style: Style; columns: number; more: boolean }): string[] {
  const { style } = opts;
  const parts = list.map((c) => `${style.bold(c.key)} ${c.shown ?? c.label}`);
  if (opts.more) parts.push(`${style.bold("v")} show all`);
  parts.push(style.dim("(Esc no · Ctrl-C stop)"));
  const rows: string[] = [];
  let row = "";
  for (const part of parts) {
    const joined = row ? `${row}${style.dim(" · ")}${part}` : part;
    if (row && textWidth(joined) + 2 > opts.columns) {
      rows.push(`  ${row}`);
      row = part;
    } else row = joined;
  }
  rows.push(`  ${row}`);
  return rows;
}

/** The keys that scroll a body box. */
function scrolling(box: BodyBox): Record<string, () => boolean> {
  return {
    up: () => box.scroll({ by: -1 }),
    down: () => box.scroll({ by: 1 }),
    pageup: () => box.scroll({ by: -box.page }),
    pagedown: () => box.scroll({ by: box.page }),
    home: () => box.scroll({ to: 0 }),
    end: () => box.scroll({ to: Infinity }),
  };
}

/** `n`: ask what to do instead; the refusal carries it to the model. */
async function refusal(io: ApprovalIO): Promise<Reply> {
  const answer = await io.readLine(
    `  ${io.style.dim("what should navi do instead? (Enter to just refuse)")} `,
  );
  const instead = answer.kind === "line" ? answer.text.trim() : "";
  return instead ? { answer: "no", instead } : { answer: "no" };
}

/**
 * Ask about one tool call with single keys: y yes, n no (then what to do instead), a always for the tool,
 * p always for commands with this prefix; Esc and Ctrl-D answer no; Ctrl-C answers no and calls `interrupt`
 * (the step stops). A body taller than the terminal scrolls in its box (arrows, PgUp/PgDn, Home/End) and
 * y, a and p are taken only once its last line has been on screen, or after `v` printed it whole.
 */
export function askApproval(
  q: ApprovalQuestion,
  io: ApprovalIO,
  opts: { interrupt(): void },
): Promise<Reply> {
  const { out, style } = io;
  const { title, lines } = body(q, style);
  const columns = out.columns();
  const rows = lines.flatMap((l) => wrapText(l, Math.max(20, columns - 4))).map((r) =>
    `  ${style.dim("│")} ${r}`
  );
  const list = choices(q, columns);
  const hint = () => hintRows(list, { style, columns, more: box.scrolls });
  for (
    const row of wrapRows(`${style.yellow("?")} ${style.bold(printable(title))}`, { columns, rest: "  " })
  ) {
    out.write(row + "\r\n");
  }
  const box = new BodyBox(rows, {
    out,
    style,
    reserved: 5 + hintRows(list, { style, columns, more: true }).length,
  });
  box.draw(hint());
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: Reply, shown: string) => {
      done = true;
      pop();
      out.write(`  ${style.dim("→")} ${shown}\r\n`);
      resolve(reply);
    };
    const scrollKeys = scrolling(box);
    const onKey = async (key: Key) => {
      const name = key.kind === "key" ? key.name : key.kind === "text" ? key.text.toLowerCase() : "";
      const ctrl = key.kind === "key" && key.ctrl;
      if (ctrl && name === "c") {
        opts.interrupt();
        return finish({ answer: "no" }, "no (stopped)");
      }
      if (name === "closed") {
        opts.interrupt();
        return finish({ answer: "no" }, "no (navi is stopping)");
      }
      if ((ctrl && name === "d") || name === "escape") return finish({ answer: "no" }, "no");
      if (key.kind === "key" && scrollKeys[name]) return void (scrollKeys[name]() && box.draw(hint()));
      if (name === "v" && box.scrolls) return box.showWhole(hint());
      const choice = list.find((c) => c.key === name);
      if (!choice) {
        return box.draw(hint(), `press ${list.map((c) => c.key).join(", ")} or Esc`);
      }
      if (choice.key !== "n" && !box.seen) {
        return box.draw(
          hint(),
          "not yet: scroll to the last line first (↓, PgDn, End), or press v to show it all",
        );
      }
      if (choice.key !== "n") return finish(choice.reply, choice.label);
      done = true;
      pop();
      resolve(await refusal(io));
    };
    const pop = io.input.push((keys) => {
      for (const key of keys) {
        if (done) return;
        if (key.kind === "text" && key.text.length > 1) {
          for (const ch of key.text) if (!done) void onKey({ kind: "text", text: ch });
        } else void onKey(key);
      }
    });
  });
}
