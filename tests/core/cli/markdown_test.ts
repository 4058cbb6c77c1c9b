import { diffView } from "../../../core/cli/diff_view.ts";
import { MarkdownStream, renderLine } from "../../../core/cli/markdown.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import { assertEquals } from "../../helpers.ts";

const color = makeStyle(true, { get: () => undefined });
// deno-lint-ignore no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*[mAJK]/g, "").replace(/\r/g, "");
/** What a terminal shows: "\r\x1b[J" erases the line being drawn. */
const screen = (s: string) =>
  s.split("\r\x1b[J").reduce(
    (shown, part, i) => (i ? shown.slice(0, shown.lastIndexOf("\n") + 1) : shown) + part,
    "",
  );

Deno.test("markdown lines: headings, emphasis, code, links, lists, quotes and tables are rendered", () => {
  assertEquals(renderLine("## Title **x**", color), "\x1b[1m\x1b[4mTitle \x1b[1mx\x1b[22m\x1b[24m\x1b[22m");
  assertEquals(plain(renderLine("Some **bold**, *it*, `code` & <x>", color)), "Some bold, it, code & <x>");
  assertEquals(renderLine("`code`", color), "\x1b[36mcode\x1b[39m");
  assertEquals(plain(renderLine("  - item [docs](http://x)", color)), "  • item docs (http://x)");
  assertEquals(plain(renderLine("3. third", color)), "3. third");
  assertEquals(plain(renderLine("> quoted", color)), "│ quoted");
  assertEquals(plain(renderLine("| a | **b** |", color)), "│ a │ b │");
  assertEquals(
    plain(renderLine("text with \x1b]0;title\x07 escape", color)),
    "text with \\x1b]0;title\\x07 escape",
  );
});

Deno.test("a streamed answer is drawn raw while a line streams and rendered when its newline arrives", () => {
  const out: string[] = [];
  const md = new MarkdownStream({
    write: (t) => void out.push(t),
    style: color,
    columns: () => 80,
    highlight: (lang, code) => lang === "ts" ? `<${code}>` : undefined,
  });
  for (const piece of ["# He", "llo\nplain **b", "old**\n```ts\nconst a = 1;\n```\n", "tail"]) md.push(piece);
  assertEquals(md.midLine, true);
  md.end();
  const shown = out.join("");
  assertEquals(shown.startsWith("# He"), true, "raw while streaming");
  assertEquals(
    plain(screen(shown)).split("\n"),
    ["Hello", "plain bold", "┌─ ts", "│ <const a = 1;>", "└─", "tail"],
  );
  assertEquals(shown.includes("\x1b[1m\x1b[4mHello"), true, "the heading, rendered");
});

Deno.test("a diff preview: hunks with line numbers and counts; a new file: first lines and size", () => {
  const none = makeStyle(false);
  const edit = diffView({
    kind: "diff",
    path: "a.txt",
    before: "1\n2\n3\n4\n5\n",
    after: "1\n2\nthree\n4\n5\nsix\n",
  }, {
    style: none,
  });
  assertEquals(edit.title, "a.txt (+2 -1)");
  assertEquals(edit.lines, [
    "@@ -1,5 +1,6 @@",
    "1   1",
    "2   2",
    "3 - 3",
    "3 + three",
    "4   4",
    "5   5",
    "6 + six",
  ]);
  const created = diffView({ kind: "diff", path: "n.txt", before: null, after: "a\nb\nc\n" }, {
    style: none,
    firstLines: 2,
  });
  assertEquals(created, {
    title: "create n.txt (3 lines, 6 B)",
    lines: ["1 a", "2 b", "… 1 more lines"],
    added: 3,
    removed: 0,
  });
});
