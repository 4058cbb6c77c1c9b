import { askApproval } from "../../../core/cli/approval_prompt.ts";
import type { Key } from "../../../core/cli/keys.ts";
import type { LineResult } from "../../../core/cli/line_editor.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import type { KeyHandler } from "../../../core/cli/terminal.ts";
import type { ApprovalQuestion } from "../../../core/mod.ts";
import { assertEquals, assertMatch } from "../../helpers.ts";

function io(lines: LineResult[] = []) {
  const handlers: KeyHandler[] = [];
  const out: string[] = [];
  return {
    out,
    send: (...keys: Key[]) => handlers.at(-1)!(keys),
    io: {
      input: {
        push(h: KeyHandler) {
          handlers.push(h);
          return () => void handlers.splice(handlers.indexOf(h), 1);
        },
      },
      out: { write: (t: string) => void out.push(t), columns: () => 80, rows: () => 20 },
      style: makeStyle(false),
      readLine: () => Promise.resolve(lines.shift() ?? { kind: "eof" as const }),
    },
  };
}

const text = (t: string): Key => ({ kind: "text", text: t });
const bash = (command: string): ApprovalQuestion => ({
  tool: "bash",
  summary: "",
  args: { command },
  prefix: command.split(" ").slice(0, 2).join(" "),
});

Deno.test("a long diff folds; v shows the rest; p answers always for the prefix", async () => {
  const t = io();
  const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
  const after = before.replace(/line (\d+)/g, "LINE $1");
  const q: ApprovalQuestion = {
    tool: "write_file",
    summary: "",
    args: {},
    preview: { kind: "diff", path: "f.txt", before, after },
  };
  const answer = askApproval(q, t.io, { interrupt: () => {} });
  assertMatch(t.out.join(""), /… 69 more lines\r\n.*v show 69 more lines/);
  t.send(text("v"));
  assertMatch(t.out.join(""), /│ 40 \+ LINE 39\r\n/);
  t.send(text("y"));
  assertEquals(await answer, { answer: "yes" });
  const p = io();
  const prefix = askApproval(bash("git status --short"), p.io, { interrupt: () => {} });
  p.send(text("p"));
  assertEquals(await prefix, { answer: "always", prefix: "git status" });
  assertMatch(p.out.join(""), /→ always for commands starting with `git status`/);
});

Deno.test("Esc answers no; Ctrl-C answers no and interrupts; n asks what to do instead", async () => {
  const e = io();
  const esc = askApproval(bash("ls"), e.io, { interrupt: () => {} });
  e.send(text("?"), { kind: "key", name: "escape" });
  assertEquals(await esc, { answer: "no" });
  assertMatch(e.out.join(""), /press y, n, a, p or Esc/);
  let interrupted = 0;
  const c = io();
  const ctrlC = askApproval(bash("ls"), c.io, { interrupt: () => interrupted++ });
  c.send({ kind: "key", name: "c", ctrl: true });
  assertEquals(await ctrlC, { answer: "no" });
  assertEquals(interrupted, 1);
  const n = io([{ kind: "line", text: "use git log instead" }]);
  const no = askApproval(bash("ls"), n.io, { interrupt: () => {} });
  n.send(text("n"));
  assertEquals(await no, { answer: "no", instead: "use git log instead" });
});
