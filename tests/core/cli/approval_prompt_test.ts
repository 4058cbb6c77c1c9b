import { askApproval } from "../../../core/cli/approval_prompt.ts";
import type { Key } from "../../../core/cli/keys.ts";
import type { LineResult } from "../../../core/cli/line_editor.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import type { KeyHandler } from "../../../core/cli/terminal.ts";
import type { ApprovalQuestion } from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch } from "../../helpers.ts";

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

Deno.test("a long diff scrolls in its box; y waits until the last line was shown; v shows it whole; p answers always for the prefix", async () => {
  const t = io();
  const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
  const after = before.replace(/line (\d+)/g, "LINE $1");
  const q: ApprovalQuestion = {
    tool: "write_file",
    summary: "",
    args: {},
    preview: { kind: "diff", path: "f.txt", before, after },
  };
  let settled = false;
  const answer = askApproval(q, t.io, { interrupt: () => {} }).finally(() => (settled = true));
  assertMatch(t.out.join(""), /lines 1-\d+ of 81 · ↓ PgDn End to see the rest · v show all/);
  assert(!t.out.join("").includes("LINE 39"), "the tail is not on screen yet");
  t.send(text("y"));
  await Promise.resolve();
  assert(!settled, "y is not taken before the last line was on screen");
  assertMatch(t.out.at(-1)!, /not yet: scroll to the last line first/);
  t.send(text("v"));
  assertMatch(t.out.join(""), /│ 40 \+ LINE 39\r\n/);
  t.send(text("y"));
  assertEquals(await answer, { answer: "yes" });

  const s = io();
  const scrolled = askApproval(q, s.io, { interrupt: () => {} });
  s.send({ kind: "key", name: "pagedown" }, { kind: "key", name: "end" });
  assertMatch(
    s.out.at(-1)!,
    // deno-lint-ignore no-control-regex -- the redraw in place is what is checked
    /\x1b\[\d+A\r\x1b\[J.*│ 40 \+ LINE 39\r\n.*lines \d+-81 of 81 · ↑↓ PgUp PgDn scroll/s,
  );
  s.send({ kind: "key", name: "home" }, text("a"));
  assertEquals(await scrolled, { answer: "always" }, "seen once is enough");

  const p = io();
  const prefix = askApproval(bash("git status --short"), p.io, { interrupt: () => {} });
  p.send(text("p"));
  assertEquals(await prefix, { answer: "always", prefix: "git status" });
  assertMatch(p.out.join(""), /→ always for commands starting with `git status`/);
});

Deno.test("the hint for a 6,000-character first word stays on one row, its middle cut out", async () => {
  const t = io();
  const word = "a".repeat(3000) + "b".repeat(3000);
  const answer = askApproval({ ...bash(`${word} --flag`), prefix: word }, t.io, { interrupt: () => {} });
  const hint = t.out.join("").split("\r\n").find((l) => l.includes("always for commands starting with"))!;
  assertMatch(hint, /^ {2}p always for commands starting with `a+…b+`$/);
  assert(hint.length <= 80, hint);
  t.send({ kind: "key", name: "escape" });
  assertEquals(await answer, { answer: "no" });
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
