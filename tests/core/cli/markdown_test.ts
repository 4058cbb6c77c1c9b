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

const none = makeStyle(false);

/** Render a whole answer as the stream would, `columns` wide, without colour. */
function rendered(text: string, columns: number, style = none): string[] {
  const out: string[] = [];
  const md = new MarkdownStream({ write: (t) => void out.push(t), style, columns: () => columns });
  md.push(text + "\n");
  md.end();
  return plain(screen(out.join(""))).replace(/\n$/, "").split("\n");
}

Deno.test("markdown lines: headings, emphasis, code, links, lists, quotes are rendered", () => {
  assertEquals(
    renderLine("## Title **x**", color),
    "\x1b[1mTitle \x1b[1mx\x1b[22m\x1b[22m\n\x1b[2m───────\x1b[22m",
  );
  assertEquals(plain(renderLine("Some **bold**, *it*, `code` & <x>", color)), "Some bold, it, code & <x>");
  assertEquals(renderLine("`code`", color), "\x1b[36mcode\x1b[39m");
  assertEquals(plain(renderLine("  - item [docs](http://x)", color)), "  • item docs (http://x)");
  assertEquals(plain(renderLine("3. third", color)), "3. third");
  assertEquals(plain(renderLine("> quoted", color)), "│ quoted");
  assertEquals(
    plain(renderLine("text with \x1b]0;title\x07 escape", color)),
    "text with \\x1b]0;title\\x07 escape",
  );
});

Deno.test("headings are told apart without colour: a double rule, a single rule, hashes", () => {
  assertEquals(rendered("# Top\n## Part\n### Detail\ntext", 80), [
    "Top",
    "═══",
    "Part",
    "────",
    "### Detail",
    "text",
  ]);
});

Deno.test("prose and list items wrap at words with hanging indents; code keeps its gutter when wrapped", () => {
  const words =
    "navi wraps long paragraphs at word boundaries so that no word is ever cut in two at the edge";
  const para = rendered(words, 40);
  assertEquals(para, [
    "navi wraps long paragraphs at word",
    "boundaries so that no word is ever cut",
    "in two at the edge",
  ]);
  assertEquals(para.join(" "), words);
  assertEquals(rendered(`- ${words}`, 40), [
    "• navi wraps long paragraphs at word",
    "  boundaries so that no word is ever cut",
    "  in two at the edge",
  ]);
  assertEquals(rendered(`> ${words}`, 40)[1], "│ boundaries so that no word is ever cut");
  const code = rendered("```\nconst x = someFunction(argumentOne, argumentTwo);\n```", 30);
  assertEquals(code, ["┌─ code", "│ const x = someFunction(argum", "│ entOne, argumentTwo);", "└─"]);
});

Deno.test("a table is drawn aligned, cells wrapped within their columns; too wide, it becomes a list", () => {
  const table = [
    "| name | role | notes |",
    "|------|:----:|------:|",
    "| navi | agent | a terminal coding agent that runs tools with approval |",
    "| **mcp** | servers | 3 |",
    "",
    "after",
  ].join("\n");
  assertEquals(rendered(table, 80), [
    "┌──────┬─────────┬───────────────────────────────────────────────────────┐",
    "│ name │ role    │ notes                                                 │",
    "├──────┼─────────┼───────────────────────────────────────────────────────┤",
    "│ navi │  agent  │ a terminal coding agent that runs tools with approval │",
    "│ mcp  │ servers │                                                     3 │",
    "└──────┴─────────┴───────────────────────────────────────────────────────┘",
    "",
    "after",
  ]);
  const narrow = rendered(table, 40);
  assertEquals(narrow.slice(0, 5), [
    "┌──────┬─────────┬─────────────────────┐",
    "│ name │ role    │ notes               │",
    "├──────┼─────────┼─────────────────────┤",
    "│ navi │  agent  │   a terminal coding │",
    "│      │         │     agent that runs │",
  ]);
  for (const row of narrow) assertEquals(row.length <= 40, true, row);
  const wide = rendered(
    [
      "| a | b | c | d | e | f |",
      "|---|---|---|---|---|---|",
      "| alpha | bravo | charlie | delta | echo | foxtrot |",
    ]
      .join("\n"),
    30,
  );
  assertEquals(wide, ["• a: alpha", "  b: bravo", "  c: charlie", "  d: delta", "  e: echo", "  f: foxtrot"]);
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
    ["Hello", "═════", "plain bold", "┌─ ts", "│ <const a = 1;>", "└─", "tail", ""],
  );
  assertEquals(shown.includes("\x1b[1mHello"), true, "the heading, rendered");
});

Deno.test("a diff preview: hunks with line numbers and counts; a new file: first lines and size", () => {
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
