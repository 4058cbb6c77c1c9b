import type { ApprovalQuestion, Reply } from "../mod.ts";
import { diffView } from "./diff_view.ts";
import type { Key } from "./keys.ts";
import type { LineResult } from "./line_editor.ts";
import type { Style } from "./style.ts";
import type { KeySource, TermOut } from "./terminal.ts";
import { escapeControls as printable } from "../output/mod.ts";
import { wrapText } from "./text_width.ts";

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
}

function choices(q: ApprovalQuestion): Choice[] {
  const list: Choice[] = [
    { key: "y", label: "yes", reply: { answer: "yes" } },
    { key: "n", label: "no", reply: { answer: "no" } },
    {
      key: "a",
      label: q.outside !== undefined ? `always for ${q.tool} outside the workspace` : `always for ${q.tool}`,
      reply: { answer: "always" },
    },
  ];
  if (q.prefix && q.outside === undefined) {
    list.push({
      key: "p",
      label: `always for commands starting with \`${printable(q.prefix)}\``,
      reply: { answer: "always", prefix: q.prefix },
    });
  }
  return list;
}

/** The body of the question: the whole command, a diff, a new file's first lines, or the arguments. */
function body(q: ApprovalQuestion, style: Style): { title: string; lines: string[] } {
  if (q.outside !== undefined) {
    return { title: `${q.tool} wants to reach outside the workspace: ${printable(q.outside)}`, lines: [] };
  }
  if (q.preview?.kind === "diff") {
    const view = diffView(q.preview, { style });
    return {
      title: `${q.tool} wants to ${q.preview.before === null ? "" : "change "}${view.title}`,
      lines: view.lines,
    };
  }
  if (typeof q.args.command === "string") {
    const rest = Object.entries(q.args).filter(([k]) => k !== "command");
    const lines = q.args.command.split("\n").map((l) => printable(l));
    if (rest.length) lines.push(style.dim(rest.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ")));
    return { title: `${q.tool} wants to run:`, lines };
  }
  const json = JSON.stringify(q.args, null, 2);
  return {
    title: `${q.tool} wants to run with:`,
    lines: json === "{}" ? [] : json.split("\n").map(printable),
  };
}

/**
 * Ask about one tool call with single keys: y yes, n no (then what to do instead), a always for the tool,
 * p always for commands with this prefix, v to unfold a long body; Esc and Ctrl-D answer no; Ctrl-C answers
 * no and calls `interrupt` (the step stops). Any other key asks again.
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
  const limit = Math.max(8, out.rows() - 8);
  const folded = rows.length > limit + 2;
  out.write(`${style.yellow("?")} ${style.bold(printable(title))}\r\n`);
  out.write((folded ? rows.slice(0, limit) : rows).map((r) => r + "\r\n").join(""));
  const list = choices(q);
  const hint = () => {
    const keys = list.map((c) => `${style.bold(c.key)} ${c.label}`);
    if (unfold) keys.push(`${style.bold("v")} show ${rows.length - limit} more lines`);
    out.write(`  ${keys.join(style.dim(" · "))}  ${style.dim("(Esc no · Ctrl-C stop)")}\r\n`);
  };
  let unfold = folded;
  if (folded) out.write(style.dim(`  … ${rows.length - limit} more lines`) + "\r\n");
  hint();
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: Reply, shown: string) => {
      done = true;
      pop();
      out.write(`  ${style.dim("→")} ${shown}\r\n`);
      resolve(reply);
    };
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
      if (name === "v" && unfold) {
        unfold = false;
        out.write(rows.slice(limit).map((r) => r + "\r\n").join(""));
        return hint();
      }
      const choice = list.find((c) => c.key === name);
      if (!choice) {
        return out.write(style.yellow(`  press ${list.map((c) => c.key).join(", ")} or Esc`) + "\r\n");
      }
      if (choice.key !== "n") return finish(choice.reply, choice.label);
      done = true;
      pop();
      const answer = await io.readLine(
        `  ${style.dim("what should navi do instead? (Enter to just refuse)")} `,
      );
      const instead = answer.kind === "line" ? answer.text.trim() : "";
      resolve(instead ? { answer: "no", instead } : { answer: "no" });
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
