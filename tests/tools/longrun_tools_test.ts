// bash with run_in_background, bash_output, kill_shell and todo_write as tools: their arguments and errors.
import bash from "../../tools/bash.ts";
import bashOutput from "../../tools/bash_output.ts";
import killShell from "../../tools/kill_shell.ts";
import todoWrite from "../../tools/todo_write.ts";
import type { TodoItem } from "../../core/mod.ts";
import { assert, assertEquals, assertMatch, toolContext } from "../helpers.ts";
import { shellManager } from "../core/shells/support.ts";

Deno.test("bash run_in_background returns the shell id and first output; the tools read and stop it", async () => {
  await using t = await shellManager();
  const ctx = { ...toolContext(t.home), shells: t.shells };
  const started = await bash.run(
    { command: "echo up; echo ERR >&2; sleep 30", run_in_background: true },
    ctx,
  );
  assertEquals([started.ok, started.shell_id, started.status], [true, "shell_1", "running"]);
  assertMatch(String(started.output), /^(up\nERR\n|ERR\nup\n)$/);
  const none = await bashOutput.run({ id: "shell_9" }, ctx);
  assertEquals(none, { ok: false, error: "No background shell shell_9 in this session (shells: shell_1)" });
  const bad = await bashOutput.run({ id: "shell_1", filter: "(?=x)" }, ctx);
  assert(!bad.ok);
  assertMatch(bad.error, /^Invalid filter: .*linear time \(RE2\)/);
  const stopped = await killShell.run({ id: "shell_1" }, ctx);
  assertEquals([stopped.ok, stopped.status], [true, "killed"]);
  assertEquals((await killShell.run({ id: "shell_2" }, ctx)).ok, false);
});

Deno.test("run_in_background without a session's shells is refused, not run in the foreground", async () => {
  const r = await bash.run({ command: "echo no", run_in_background: true }, toolContext(Deno.cwd()));
  assertEquals(r, {
    ok: false,
    error: "Background shells are not available here; run the command without run_in_background",
  });
});

Deno.test("todo_write replaces the whole list; an empty item or an unknown status is refused", async () => {
  let written: readonly TodoItem[] = [];
  const ctx = {
    ...toolContext("/"),
    todos: { items: () => written, write: (i: readonly TodoItem[]) => void (written = i) },
  };
  const r = await todoWrite.run({
    todos: [{ content: "a", status: "completed" }, { content: "b", status: "pending" }],
  }, ctx);
  assertEquals(r, { ok: true, pending: 1, in_progress: 0, completed: 1 });
  assertEquals(written.length, 2);
  const empty = await todoWrite.run({ todos: [{ content: "   ", status: "pending" }] }, ctx);
  assertMatch(String(empty.error), /todos\.0\.content/);
  const status = await todoWrite.run({ todos: [{ content: "x", status: "done" }] }, ctx);
  assertMatch(String(status.error), /todos\.0\.status/);
  assertEquals(written.length, 2, "a refused write changes nothing");
  assertEquals((await todoWrite.run({ todos: [] }, ctx)).ok, true);
  assertEquals(written, []);
});

Deno.test("after a resume an earlier run's shell id points at its log instead of being unknown", async () => {
  await using t = await shellManager();
  await t.shells.start(t.spec("echo old"));
  await t.shells.close();
  const later = t.make();
  try {
    const r = await bashOutput.run({ id: "shell_1" }, { ...toolContext(t.home), shells: later });
    assert(!r.ok);
    assertMatch(
      r.error,
      /^shell_1 belonged to an earlier run of this session .* output is in .*shell_1\.log \(read_file\)$/,
    );
    const k = await killShell.run({ id: "shell_1" }, { ...toolContext(t.home), shells: later });
    assertMatch(String(k.error), /earlier run of this session/);
    assertMatch(
      String((await bashOutput.run({ id: "shell_7" }, { ...toolContext(t.home), shells: later })).error),
      /^No background shell shell_7/,
    );
  } finally {
    await later.close();
  }
});
