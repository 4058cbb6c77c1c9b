// What the REPL shows under a real terminal (tmux): tables and long paragraphs at 80 columns, /help with an
// MCP server's prompts at 80 and 120, a resize to 60 columns, and an MCP error that tries to colour or
// conceal navi's output.
import { join } from "node:path";
import { naviInPty } from "../../support/navi_pty.ts";
import { assert, assertEquals, assertMatch, ROOT, until } from "../../helpers.ts";

const MCP = {
  mcp_servers: {
    local: {
      command: Deno.execPath(),
      args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts"), "ux"],
    },
  },
};

/** Wait until the MCP server's prompts are among the slash commands (it connects in the background). */
async function mcpReady(t: Awaited<ReturnType<typeof naviInPty>>): Promise<void> {
  await until(
    async () => {
      await t.pty.type("/mcp");
      await t.pty.keys("Enter");
      await new Promise((r) => setTimeout(r, 300));
      return /local\s+stdio\s+connected/.test(await t.pty.screen({ all: true }));
    },
    30_000,
    "the MCP server connected",
  );
}

Deno.test("at 80 columns a table is drawn aligned and a long paragraph wraps at words", async () => {
  const paragraph = "This paragraph is deliberately long so that it has to wrap at the edge of an eighty " +
    "column terminal, and every word in it must arrive whole on one row or the next, never cut in two.";
  const answer = [
    "| tool | approval | what it does |",
    "|------|----------|--------------|",
    "| read_file | read_only | reads a file of the workspace, or a part of it by offset and limit |",
    "| bash | command | runs a shell command in the sandbox |",
    "",
    paragraph,
  ].join("\n");
  await using t = await naviInPty([{ text: answer }], { width: 80, height: 40 });
  await t.pty.type("tools?");
  await t.pty.keys("Enter");
  // While it streams the answer is plain text that the terminal wraps; the rendered answer replaces it.
  const screen = await t.pty.waitFor(/^This paragraph[^\n]{0,66}$[\s\S]*never cut in two\./m, 30_000);
  const rows = screen.split("\n");
  const table = rows.filter((r) => /^[┌│├└]/.test(r));
  assertEquals(table.length, 7, screen);
  for (const r of table) assertEquals(r.length, table[0].length, `aligned: ${r}`);
  assert(!screen.includes("|------|"), "no raw separator row");
  assertMatch(screen, /│ read_file │ read_only │ reads a file of the workspace, or a part of it by +│/);
  assertMatch(screen, /│ {11}│ {11}│ offset and limit +│/);
  const start = rows.findIndex((r) => r.startsWith("This paragraph"));
  const para = rows.slice(start, start + 3);
  for (const r of para) assert(r.length <= 80, r);
  assertEquals(para.join(" ").trim(), paragraph, "wrapped at words: joined with spaces it is the text");
});

Deno.test("/help at 80 and 120 columns: two aligned columns, wrapped descriptions, the MCP prompts, the keys", async () => {
  for (const width of [80, 120]) {
    await using t = await naviInPty([], { width, height: 60, config: MCP });
    await mcpReady(t);
    await t.pty.keys("C-l");
    await t.pty.type("/help");
    await t.pty.keys("Enter");
    const all = await t.pty.waitFor(/\nkeys\n[\s\S]*Ctrl-D/, 15_000);
    const screen = all.slice(all.lastIndexOf("› /help\n") + "› /help\n".length);
    const rows = screen.split("\n");
    if (Deno.env.get("SHOW_HELP")) console.log(screen);
    for (const r of rows) assert(r.length <= width, `${width}: ${r}`);
    const described = rows.filter((r) => /^ {2}\/\S/.test(r) && / {2,}\S/.test(r.slice(2)));
    const column = new Set(
      described.map((r) => r.search(/(?<=\S) {2,}\S/) + r.slice(r.search(/(?<=\S) {2,}\S/)).search(/\S/)),
    );
    assertEquals(column.size, 1, `${width}: the descriptions start in one column:\n${screen}`);
    const at = [...column][0];
    assert(at <= Math.floor(width / 3) + 6, `${width}: the first column stays narrow (${at})`);
    assertMatch(screen, /\nMCP prompts\n/);
    const long = rows.findIndex((r) =>
      r.includes("/mcp:local:review-the-whole-repository-with-a-very-long-prompt-name")
    );
    assert(long >= 0, screen);
    assertMatch(
      rows[long + 1],
      new RegExp(`^ {${at}}Review every changed file`),
      "a long name: its text below",
    );
    assertMatch(screen, /\n {2}\/mcp:local:hello +Say hello\.\n/);
    assertMatch(screen, /\n {2}Ctrl-R +search the history\n/);
    const wrapped = rows.findIndex((r) => r.trimStart().startsWith("Review every changed file"));
    assertMatch(rows[wrapped + 1], new RegExp(`^ {${at}}\\S`), "wrapped under its column");
  }
});

Deno.test("an MCP error that carries colour and conceal codes is shown as text, and navi's own lines stay plain", async () => {
  await using t = await naviInPty([
    { toolCalls: [{ name: "mcp__local__fail_styled", arguments: "{}" }] },
    { text: "after the error" },
  ], { width: 120, height: 40, config: MCP, env: { NO_COLOR: "" } });
  await mcpReady(t);
  await t.pty.type("call it");
  await t.pty.keys("Enter");
  await t.pty.waitFor("wants to run (no arguments)", 30_000);
  await t.pty.keys("y");
  await t.pty.waitFor("after the error", 30_000);
  const screen = await t.pty.screen({ all: true });
  assertMatch(
    screen,
    /⎿ error: \\x1b\[31mFAKE: approved\\x1b\[0m \\x1b\[8mhidden\\x1b\[28m \\u202eevil\\u202c/,
  );
  const styled = await t.pty.styled();
  assert(!styled.includes("\x1b[8m"), "nothing concealed");
  assert(!styled.includes("\x1b[31mFAKE"), "the server's red is not obeyed");
});

Deno.test("a resize to 60 columns keeps the input inside the window and leaves no stray prompt rows", async () => {
  await using t = await naviInPty([{ text: "ok" }], { width: 120, height: 30 });
  const text = "resize me " + "word ".repeat(40) + "END";
  await t.pty.type(text);
  await t.pty.waitFor("END");
  await t.pty.resize(60, 30);
  await until(
    async () => (await t.pty.rows())[0].length <= 60 && (await t.pty.rows()).some((r) => r.endsWith("END")),
    5000,
    "redrawn",
  );
  await t.pty.type("!");
  await t.pty.waitFor("END!");
  const rows = (await t.pty.rows()).filter((r) => r.trim());
  assertEquals(
    rows.filter((r) => r.startsWith("›")).length,
    1,
    `one prompt row on screen:\n${rows.join("\n")}`,
  );
  assertEquals(rows.join("").replace(/^› /, ""), text + "!", "the whole input, inside the window");
  for (const r of rows) assert(r.length <= 60, r);
  // The terminal's own reflow may push the first row of the old drawing into its scrollback (tmux does);
  // navi's redraws add nothing there: no second copy of the input's end.
  const all = await t.pty.rows({ all: true });
  assertEquals(all.filter((r) => r.includes("END")).length, 1, `no stray copies:\n${all.join("\n")}`);
  await t.pty.keys("Enter");
  await t.pty.waitFor(/\nok\n/, 30_000);
});
