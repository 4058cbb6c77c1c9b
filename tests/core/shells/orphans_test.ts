// The records under $NAVI_HOME/shells/ and the clean-up at start-up: what a dead navi left is stopped, what a
// live navi runs is left alone, and a pid that now names another process is never signalled.
import { join } from "node:path";
import { cleanOrphans, recordsDir, type ShellRecord } from "../../../core/mod.ts";
import { parseStat, procInfo } from "../../../core/shells/procs.ts";
import { assert, assertEquals, tempDir, until } from "../../helpers.ts";
import { marked, processesWith } from "./support.ts";

function spawnMarked(marker: string): Deno.ChildProcess {
  return new Deno.Command("bash", {
    args: ["-c", marked(marker)],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
}

async function writeRecords(home: string, records: ShellRecord[]): Promise<void> {
  await Deno.mkdir(recordsDir(home), { recursive: true });
  for (const [i, r] of records.entries()) {
    await Deno.writeTextFile(join(recordsDir(home), `r${i}.json`), JSON.stringify(r));
  }
}

const record = (owner: ShellRecord["owner"], leader: ShellRecord["leader"]): ShellRecord => ({
  owner,
  leader,
  session: "s",
  id: "shell_1",
  command: "sleep",
});

Deno.test("/proc/<pid>/stat lines are read right, also with spaces and parentheses in the name", () => {
  const line = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 98765 1 2 3";
  assertEquals(parseStat(line), { pid: 4242, ppid: 1, pgid: 4242, start: "98765", zombie: false });
  assertEquals(parseStat("garbage"), undefined);
  const self = procInfo(Deno.pid)!;
  assertEquals(self.pid, Deno.pid);
  assert(/^\d+$/.test(self.start));
});

Deno.test("the shells of a navi that is gone are stopped; those of a live navi and reused pids are not", async () => {
  await using home = await tempDir();
  const [orphan, live, reused] = ["orphan", "live", "reused"].map((k) =>
    `navi-test-${k}-${crypto.randomUUID().slice(0, 6)}`
  );
  const children = [spawnMarked(orphan), spawnMarked(live), spawnMarked(reused)];
  try {
    await until(() => [orphan, live, reused].every((m) => processesWith(m).length === 1));
    const id = (c: Deno.ChildProcess) => ({ pid: c.pid, start: procInfo(c.pid)!.start });
    const me = { pid: Deno.pid, start: procInfo(Deno.pid)!.start };
    const gone = { pid: me.pid, start: `${me.start}0` };
    await writeRecords(home.path, [
      record(gone, id(children[0])),
      record(me, id(children[1])),
      record(gone, { pid: children[2].pid, start: "1" }),
    ]);
    await Deno.writeTextFile(join(recordsDir(home.path), "broken.json"), "{not json");
    const found = await cleanOrphans(home.path, { graceMs: 500 });
    assertEquals(found.map((f) => f.record.leader.pid), [children[0].pid]);
    assertEquals(processesWith(orphan), [], "the orphan was stopped");
    assertEquals(processesWith(live).length, 1, "a live navi's shell runs on");
    assertEquals(processesWith(reused).length, 1, "a pid whose start time differs is another process");
    const left = [...Deno.readDirSync(recordsDir(home.path))].map((e) => e.name).sort();
    assertEquals(left, ["r1.json"], "stopped and unreadable records are removed, the live one stays");
  } finally {
    for (const c of children) {
      try {
        Deno.kill(-c.pid, "SIGKILL");
      } catch { /* stopped */ }
      await c.status;
    }
  }
});

Deno.test("without a records folder the clean-up reads one directory and finds nothing", async () => {
  await using home = await tempDir();
  assertEquals(await cleanOrphans(home.path), []);
});
