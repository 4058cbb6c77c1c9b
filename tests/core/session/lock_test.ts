import { join } from "node:path";
import { Session, SessionError } from "../../../core/mod.ts";
import { acquireLock, processAlive } from "../../../core/session/lock.ts";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";

async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

Deno.test("a session open in another live process is refused with a clear error; released, it opens", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" });
  s.addMessage({ role: "user", content: "hello" });
  s.close();
  const other = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    await Deno.writeTextFile(`${s.file}.lock`, JSON.stringify({ pid: other.pid }));
    let error: unknown;
    try {
      Session.load(home.path, s.meta.id);
    } catch (err) {
      error = err;
    }
    assert(error instanceof SessionError, "a SessionError (exit 2 in the CLI)");
    assertMatch(
      error.message,
      new RegExp(`is in use by another navi process \\(pid ${other.pid}\\); close that one first`),
    );
    assertEquals(await Deno.readTextFile(s.file).then((t) => t.split("\n").length), 3, "nothing written");
  } finally {
    other.kill("SIGKILL");
    await other.status;
  }
  const { session } = Session.load(home.path, s.meta.id);
  assertEquals(JSON.parse(await Deno.readTextFile(`${s.file}.lock`)).pid, Deno.pid, "taken over");
  session.close();
  assert(!(await Deno.stat(`${s.file}.lock`).catch(() => null)), "close removes the lock");
});

Deno.test("a stale lock (its process is gone) or an unreadable one is taken over", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "x.lock");
  const pid = await deadPid();
  assert(!processAlive(pid), "the pid is gone");
  await Deno.writeTextFile(path, JSON.stringify({ pid }));
  const lock = acquireLock(path);
  assert("release" in lock, "stale lock taken over");
  lock.release();
  await Deno.writeTextFile(path, "{torn");
  const again = acquireLock(path);
  assert("release" in again, "unreadable lock taken over");
  again.release();
  lock.release();
  assert(!(await Deno.stat(path).catch(() => null)));
});

Deno.test("a lock names its process; release only removes a lock that is still ours", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "x.lock");
  const lock = acquireLock(path);
  assert("release" in lock);
  assertEquals(JSON.parse(await Deno.readTextFile(path)).pid, Deno.pid);
  assert(processAlive(Deno.pid));
  await Deno.writeTextFile(path, JSON.stringify({ pid: 1 }));
  lock.release();
  assertMatch(await Deno.readTextFile(path), /"pid":1/);
});
