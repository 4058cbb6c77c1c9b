// The todo list under a real terminal (tmux): the checklist the model writes with todo_write, /todo, and the
// same list after --resume.
import { join } from "node:path";
import { naviInPty } from "../../support/navi_pty.ts";
import { assert, assertEquals, assertMatch } from "../../helpers.ts";

const todo = (items: [string, string][]) => ({
  toolCalls: [{
    name: "todo_write",
    arguments: JSON.stringify({ todos: items.map(([content, status]) => ({ content, status })) }),
  }],
});

Deno.test("the todo list shows as a checklist as it changes, in /todo, and again after --resume", async () => {
  let sessions = "";
  let id = "";
  {
    await using r = await naviInPty([
      todo([["write the parser", "pending"], ["add tests", "pending"], ["update docs", "pending"]]),
      todo([["write the parser", "completed"], ["add tests", "in_progress"], ["update docs", "pending"]]),
      { text: "plan done" },
    ]);
    await r.pty.type("do the work");
    await r.pty.keys("Enter");
    const screen = await r.pty.waitFor("plan done");
    assertMatch(screen, /todo 0\/3 done\n\s+☐ write the parser\n\s+☐ add tests\n\s+☐ update docs/);
    assertMatch(screen, /todo 1\/3 done\n\s+✔ write the parser\n\s+▸ add tests\n\s+☐ update docs/);
    await r.pty.type("/todo");
    await r.pty.keys("Enter");
    await r.pty.waitFor(/\/todo\n\s*todo 1\/3 done\n\s+✔ write the parser\n\s+▸ add tests\n\s+☐ update docs/);
    const file = [...Deno.readDirSync(join(r.home, "sessions"))].find((e) => e.name.endsWith(".jsonl"))!.name;
    id = file.replace(/\.jsonl$/, "");
    const records = Deno.readTextFileSync(join(r.home, "sessions", file)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assertEquals(records.filter((x) => x.type === "todos").at(-1).items, [
      { content: "write the parser", status: "completed" },
      { content: "add tests", status: "in_progress" },
      { content: "update docs", status: "pending" },
    ]);
    await r.pty.type("/exit");
    await r.pty.keys("Enter");
    assertEquals(await r.pty.waitExit(), 0);
    sessions = await Deno.makeTempDir({ prefix: "navi-todo-sessions-" });
    await Deno.rename(join(r.home, "sessions"), join(sessions, "sessions"));
  }
  try {
    await using resumed = await naviInPty([{ text: "resumed answer" }], {
      args: ["--resume", id],
      wait: `resumed ${id}`,
      before: (home) => Deno.rename(join(sessions, "sessions"), join(home, "sessions")),
    });
    const screen = await resumed.pty.waitFor(
      /todo 1\/3 done\n\s+✔ write the parser\n\s+▸ add tests\n\s+☐ update docs/,
    );
    assert(
      screen.indexOf(`resumed ${id}`) < screen.indexOf("todo 1/3 done"),
      "shown with the resume summary",
    );
    await resumed.pty.type("/todo");
    await resumed.pty.keys("Enter");
    await resumed.pty.waitFor(/\/todo\n\s*todo 1\/3 done\n\s+✔ write the parser/);
  } finally {
    await Deno.remove(sessions, { recursive: true }).catch(() => {});
  }
});
