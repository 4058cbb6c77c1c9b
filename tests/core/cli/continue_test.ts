// Sessions are written at the first message: a start that sends nothing leaves none, and --continue goes on
// with the last conversation; the resume preview shows the last prompt with its own answer.
import { join } from "node:path";
import { resumeSummary, sessionAge } from "../../../core/cli/commands/resume.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import { Session } from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { Pty } from "../../support/pty.ts";
import { assertEquals, assertMatch, llmConfig, MAIN, runNavi, tempDir, writeConfig } from "../../helpers.ts";

async function sessionFiles(home: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(join(home, "sessions")))).map((e) => e.name).sort();
}

Deno.test("a conversation ends with how to resume it; --continue after an empty start (Ctrl-D at once) resumes that conversation", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer([{ text: "the first answer" }, { text: "the second answer" }]);
  try {
    await writeConfig(home.path, llmConfig(server.url));
    {
      await using term = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
        env: { NAVI_HOME: home.path, NO_COLOR: "1" },
        cwd: ws.path,
        width: 120,
        height: 40,
      });
      await term.waitFor("/help for commands", 30_000);
      await term.type("remember the word kiwi");
      await term.keys("Enter");
      await term.waitFor("the first answer", 30_000);
      await term.keys("C-d");
      assertEquals(await term.waitExit(), 0);
      assertMatch(
        await term.screen({ all: true }),
        /resume this conversation with navi -c \(or navi --resume \d{8}-\d{6}-[0-9a-f]{6}\)/,
      );
    }
    const before = await sessionFiles(home.path);
    assertEquals(before.filter((n) => n.endsWith(".jsonl")).length, 1);
    {
      await using term = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
        env: { NAVI_HOME: home.path, NO_COLOR: "1" },
        cwd: ws.path,
        width: 120,
        height: 40,
      });
      await term.waitFor("/help for commands", 30_000);
      await term.keys("C-d");
      assertEquals(await term.waitExit(), 0);
      const screen = await term.screen({ all: true });
      assertEquals(screen.includes("navi -c"), false, "nothing to resume, no hint");
    }
    assertEquals(await sessionFiles(home.path), before, "the empty start left no session");
    const again = await runNavi(["--continue", "-p", "which word?"], { home: home.path, cwd: ws.path });
    assertEquals(again.code, 0, again.stderr);
    assertEquals(again.stdout, "the second answer\n");
    const sent = server.requests[1].body.messages as { role: string; content: string }[];
    assertEquals(sent.map((m) => m.content).slice(1), [
      "remember the word kiwi",
      "the first answer",
      "which word?",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("the resume preview: the last prompt with its own answer (rendered), the picker's age", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" }, { preamble: [{ role: "system", content: "sys" }] });
  s.addMessage({ role: "user", content: "first question" });
  s.addMessage({ role: "assistant", content: "**first** answer" });
  s.addMessage({ role: "user", content: "second question" });
  s.close();
  const old = new Date(Date.now() - 3 * 3_600_000);
  await Deno.utime(s.file, old, old);
  const style = makeStyle(false);
  const { session } = Session.load(home.path, s.meta.id);
  const render = (md: string) => [md.replace(/\*\*/g, "")];
  assertEquals(
    resumeSummary(session, { style, render }),
    `resumed ${s.meta.id} · 3 h ago · 3 messages\n› second question\n⎿ (no answer)`,
    "the answer of an earlier prompt is not shown under a later one",
  );
  assertEquals(sessionAge(old.getTime()), "3 h ago");
  session.addMessage({ role: "assistant", content: null, tool_calls: [] });
  session.addMessage({ role: "assistant", content: "**second** answer\nwith two lines" });
  session.close();
  const again = Session.load(home.path, s.meta.id).session;
  assertMatch(resumeSummary(again, { style, render }), /› second question\n⎿ second answer\nwith two lines$/);
  again.close();
});
