// The recorder against a real workspace: declared writes, commands that create, overwrite and delete files,
// and what a rewind plans and restores from the store.
import { join } from "node:path";
import {
  applyCode,
  Checkpoints,
  CheckpointStore,
  planCode,
  readChanges,
  storeDir,
} from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";

async function sh(cwd: string, command: string): Promise<void> {
  const out = await new Deno.Command("bash", { args: ["-c", command], cwd, stdout: "null", stderr: "null" })
    .output();
  assertEquals(out.code, 0, command);
}

const read = (p: string) => Deno.readTextFile(p).catch(() => null);

Deno.test("a command's creates, overwrites and deletes are kept and restored; a declared write too", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "c.txt"), "c original\n");
  await Deno.writeTextFile(join(ws.path, "d.txt"), "d original\n");
  const notes: string[] = [];
  const rec = new Checkpoints({
    home: home.path,
    sessionId: "s1",
    workspace: ws.path,
    notice: (l) => notes.push(l),
  });
  try {
    rec.beginTurn(1);
    const w = await rec.beforeCall({ tool: "write_file", effect: { files: ["a.txt"] } });
    await Deno.writeTextFile(join(ws.path, "a.txt"), "a turn 1\n");
    await w!.done();
    rec.beginTurn(2);
    const e = await rec.beforeCall({ tool: "edit_file", effect: { files: ["a.txt"] } });
    await Deno.writeTextFile(join(ws.path, "a.txt"), "a turn 2\n");
    await e!.done();
    const b = await rec.beforeCall({ tool: "bash", effect: "any" });
    await sh(ws.path, "echo new > b.txt && echo changed > c.txt && rm d.txt");
    await b!.done();
  } finally {
    await rec.close();
  }
  assertEquals(notes, []);
  const store = new CheckpointStore(storeDir(home.path, "s1"));
  const { changes } = readChanges(store, "s1");
  assertEquals(
    changes.map((c) => [c.n, c.path, c.by]),
    [
      [1, "a.txt", "write_file"],
      [2, "a.txt", "edit_file"],
      [2, "b.txt", "bash"],
      [2, "c.txt", "bash"],
      [2, "d.txt", "bash"],
    ].sort((x, y) => (x[0] as number) - (y[0] as number) || String(x[1]).localeCompare(String(y[1]))),
  );
  const plan = planCode(store, { root: ws.path, changes, to: 1 });
  assertEquals(plan.map((f) => [f.path, f.changedSince]), [
    ["a.txt", false],
    ["b.txt", false],
    ["c.txt", false],
    ["d.txt", false],
  ]);
  applyCode(store, plan, { root: ws.path, n: 3 });
  assertEquals(await read(join(ws.path, "a.txt")), "a turn 1\n");
  assertEquals(await read(join(ws.path, "b.txt")), null);
  assertEquals(await read(join(ws.path, "c.txt")), "c original\n");
  assertEquals(await read(join(ws.path, "d.txt")), "d original\n");
  const undo = planCode(store, { root: ws.path, changes: readChanges(store, "s1").changes, to: 2 });
  applyCode(store, undo, { root: ws.path, n: 4 });
  assertEquals(await read(join(ws.path, "a.txt")), "a turn 2\n");
  assertEquals(await read(join(ws.path, "b.txt")), "new\n");
  assertEquals(await read(join(ws.path, "c.txt")), "changed\n");
  assertEquals(await read(join(ws.path, "d.txt")), null);
  assertMatch(JSON.stringify(changes), /"before":null/);
  assert(true);
});
