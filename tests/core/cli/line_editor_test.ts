import { History } from "../../../core/cli/history.ts";
import type { Key } from "../../../core/cli/keys.ts";
import { layout, LineBuffer } from "../../../core/cli/line_buffer.ts";
import { LineEditor, type LineResult } from "../../../core/cli/line_editor.ts";
import type { KeyHandler } from "../../../core/cli/terminal.ts";
import { assertEquals, tempDir } from "../../helpers.ts";

function fakeTerminal() {
  const handlers: KeyHandler[] = [];
  const written: string[] = [];
  return {
    written,
    input: {
      push(h: KeyHandler) {
        handlers.push(h);
        return () => void handlers.splice(handlers.indexOf(h), 1);
      },
    },
    out: { write: (t: string) => void written.push(t), columns: () => 40, rows: () => 20 },
    send: (...keys: Key[]) => handlers.at(-1)!(keys),
  };
}

const text = (t: string): Key => ({ kind: "text", text: t });
const key = (name: string, mods: { ctrl?: boolean; alt?: boolean } = {}): Key => ({
  kind: "key",
  name,
  ...mods,
});

async function read(keys: Key[], opts: { history?: History } = {}): Promise<LineResult> {
  const term = fakeTerminal();
  const editor = new LineEditor(term.input, term.out);
  const result = editor.readLine({ prompt: "› ", history: opts.history });
  term.send(...keys);
  return await result;
}

Deno.test("editing keys: words, line start and end, kill, and a trailing backslash continues the line", async () => {
  assertEquals(await read([text("hello world"), key("w", { ctrl: true }), text("there"), key("enter")]), {
    kind: "line",
    text: "hello there",
  });
  assertEquals(
    await read([
      text("bc"),
      key("a", { ctrl: true }),
      text("a"),
      key("e", { ctrl: true }),
      text("d"),
      key("enter"),
    ]),
    {
      kind: "line",
      text: "abcd",
    },
  );
  assertEquals(
    await read([
      text("one\\"),
      key("enter"),
      text("two"),
      key("enter", { alt: true }),
      text("three"),
      key("enter"),
    ]),
    {
      kind: "line",
      text: "one\ntwo\nthree",
    },
  );
  assertEquals(await read([key("d", { ctrl: true })]), { kind: "eof" });
  assertEquals(await read([text("abc"), key("c", { ctrl: true })]), { kind: "interrupt", text: "abc" });
});

Deno.test("a long paste is a placeholder on screen, sent whole; backspace removes it whole", async () => {
  const big = "y".repeat(5000);
  assertEquals(await read([{ kind: "paste", text: big }, text(" end"), key("enter")]), {
    kind: "line",
    text: `${big} end`,
  });
  assertEquals(
    await read([text("a "), { kind: "paste", text: big }, key("backspace"), text("b"), key("enter")]),
    {
      kind: "line",
      text: "a b",
    },
  );
});

Deno.test("history: Up recalls, Ctrl-R searches back, entries with newlines survive the file", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/history`;
  const h = new History(file);
  h.add("git status");
  h.add("first\nsecond");
  h.add("ls -la");
  const again = new History(file);
  assertEquals(again.entries, ["git status", "first\nsecond", "ls -la"]);
  assertEquals(await read([key("up"), key("up"), key("enter")], { history: again }), {
    kind: "line",
    text: "first\nsecond",
  });
  assertEquals(
    await read([key("r", { ctrl: true }), text("git"), key("enter")], { history: new History(file) }),
    {
      kind: "line",
      text: "git status",
    },
  );
});

Deno.test("layout wraps at the terminal width and puts the cursor on the right row and column", () => {
  const opts = { prompt: "› ", promptWidth: 2, continuation: "  ", columns: 10 };
  assertEquals(layout("abcdefghijkl", 12, opts), {
    rows: ["› abcdefgh", "ijkl"],
    cursorRow: 1,
    cursorCol: 4,
  });
  assertEquals(layout("abcdefgh", 8, opts), { rows: ["› abcdefgh", ""], cursorRow: 1, cursorCol: 0 });
  assertEquals(layout("a\nb漢", 1, opts), { rows: ["› a", "  b漢"], cursorRow: 0, cursorCol: 3 });
  assertEquals(layout("x\x1b[2Jy", 0, opts).rows, ["› x?[2Jy"], "control characters are not echoed");
  const b = new LineBuffer();
  b.set("one\ntwo", 6);
  assertEquals(b.up(), true);
  assertEquals(b.cursor, 2);
  assertEquals(b.up(), false);
});
