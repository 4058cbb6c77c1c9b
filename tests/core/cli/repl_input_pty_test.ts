// The REPL's input under a real pseudo-terminal: completion, @files, multi-line, Ctrl-R, Esc, !commands,
// /model, /clear, resume.
import { join } from "node:path";
import { naviInPty } from "../../support/navi_pty.ts";
import { assertEquals, runNavi } from "../../helpers.ts";

Deno.test("Tab completes commands (with a space) and @paths; a mention attaches the file; Alt-Enter and \\ make lines", async () => {
  await using r = await naviInPty([{ text: "read it" }, { text: "two lines" }, { text: "three lines" }], {
    before: async (_home, ws) => {
      await Deno.mkdir(join(ws, "src"));
      await Deno.writeTextFile(join(ws, "src", "main.ts"), "console.log(1);\n");
    },
  });
  await r.pty.type("/he");
  await r.pty.keys("Tab");
  await r.pty.type("|");
  await r.pty.waitFor("› /help |");
  await r.pty.keys("C-u");
  await r.pty.type("explain @sr");
  await r.pty.keys("Tab");
  await r.pty.type("ma");
  await r.pty.keys("Tab");
  await r.pty.waitFor("› explain @src/main.ts ");
  await r.pty.keys("Enter");
  await r.pty.waitFor("attached @src/main.ts (1 lines)");
  await r.pty.waitFor("read it");
  assertEquals(
    r.lastMessage(0).content,
    'explain @src/main.ts\n\n<file path="src/main.ts">\nconsole.log(1);\n</file>',
  );
  await r.pty.type("line one");
  await r.pty.keys("M-Enter");
  await r.pty.type("line two");
  await r.pty.keys("Enter");
  await r.pty.waitFor("two lines");
  assertEquals(r.lastMessage(1).content, "line one\nline two");
  await r.pty.type("first\\");
  await r.pty.keys("Enter");
  await r.pty.type("second\\");
  await r.pty.keys("Enter");
  await r.pty.type("third");
  await r.pty.keys("Enter");
  await r.pty.waitFor("three lines");
  assertEquals(r.lastMessage(2).content, "first\nsecond\nthird");
});

Deno.test("Ctrl-R finds an earlier prompt; Esc interrupts a turn like Ctrl-C", async () => {
  await using r = await naviInPty([
    { text: "answer one" },
    { hang: true, text: "slowly streaming" },
    { text: "answer three" },
  ]);
  await r.pty.type("find the needle please");
  await r.pty.keys("Enter");
  await r.pty.waitFor("answer one");
  await r.pty.type("something else");
  await r.pty.keys("Enter");
  await r.pty.waitFor("slowly streaming");
  await r.pty.keys("Escape");
  await r.pty.waitFor(/slowly streaming\n\(interrupted\)/);
  await r.pty.keys("C-r");
  await r.pty.type("needle");
  await r.pty.waitFor("(reverse-i-search)'needle': find the needle please");
  await r.pty.keys("Enter");
  await r.pty.waitFor("answer three");
  assertEquals(r.lastMessage(2).content, "find the needle please");
});

Deno.test("!command runs through the bash approval, shows its output, and goes with the next message", async () => {
  await using r = await naviInPty([{ text: "seen it" }]);
  await r.pty.type("!echo shell-says-hi");
  await r.pty.keys("Enter");
  await r.pty.waitFor("bash wants to run:");
  await r.pty.type("y");
  await r.pty.waitFor(/shell-says-hi\n.*exit 0 .*the output goes with your next message/);
  assertEquals(r.server.requests.length, 0, "a !command alone sends nothing");
  await r.pty.type("what did it print?");
  await r.pty.keys("Enter");
  await r.pty.waitFor("seen it");
  assertEquals(
    r.lastMessage(0).content,
    "The user ran a shell command:\n$ echo shell-says-hi\nshell-says-hi\n(exit 0)\n\nwhat did it print?",
  );
});

Deno.test("/model lists the provider's models and completes them; /clear clears the screen", async () => {
  await using r = await naviInPty([], { models: ["gpt-a", "gpt-b", "other-model"] });
  await r.pty.type("/model");
  await r.pty.keys("Enter");
  await r.pty.waitFor(/model: m \(provider local\)\n {2}gpt-a\n {2}gpt-b\n {2}other-model/);
  await r.pty.type("/model ot");
  await r.pty.keys("Tab");
  await r.pty.waitFor("› /model other-model ");
  await r.pty.keys("Enter");
  await r.pty.waitFor("model set to other-model (provider local)");
  await r.pty.type("/clear");
  await r.pty.keys("Enter");
  await r.pty.waitFor("new conversation");
  const visible = await r.pty.screen();
  assertEquals(visible.includes("gpt-a"), false, visible);
});

Deno.test("--resume without an id picks from a list with the arrow keys and shows what was resumed", async () => {
  await using r = await naviInPty([{ text: "answer 0" }, { text: "answer 1" }, { text: "answer 2" }], {
    args: ["--resume"],
    wait: "resume which?",
    before: async (home, ws) => {
      for (const q of ["first question", "second question"]) {
        const run = await runNavi(["-p", q], { home, cwd: ws });
        assertEquals(run.code, 0, run.stderr);
      }
    },
  });
  const list = await r.pty.screen();
  const newest = list.match(/^› 1\s+(\S+)\s+(just now|1 min ago)\s+\d+ msgs\s+second question/m)!;
  const older = list.match(/^ {2}2\s+(\S+)\s+.*first question/m)![1];
  await r.pty.keys("Down");
  await r.pty.waitFor(new RegExp(`› 2\\s+${older}`));
  await r.pty.keys("Up");
  await r.pty.waitFor(new RegExp(`› 1\\s+${newest[1]}`));
  await r.pty.keys("Down");
  await r.pty.keys("Enter");
  await r.pty.waitFor(
    new RegExp(`resumed ${older} · ${newest[2]} · 2 messages\\n› first question\\n⎿ answer 0`),
  );
  await r.pty.type("/resume");
  await r.pty.keys("Enter");
  await r.pty.waitFor(/› \/resume\nresume which\? \(↑↓ move · Enter resume · Esc cancel\)/);
  await r.pty.keys("Escape");
  await r.pty.waitFor("resume which? cancelled");
});
