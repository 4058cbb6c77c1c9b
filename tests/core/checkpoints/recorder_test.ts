// The recorder against real workspaces: declared writes, commands that create, overwrite and delete files
// (seen through the file watch, and by walking when the watch is off or overflowed), and what a rewind plans
// and restores from the store.
import { join, resolve } from "node:path";
import {
  applyCode,
  Checkpoints,
  CheckpointStore,
  planCode,
  pruneStores,
  readChanges,
  type RecorderOptions,
  storeDir,
} from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";

async function sh(cwd: string, command: string): Promise<void> {
  const out = await new Deno.Command("bash", { args: ["-c", command], cwd, stdout: "null", stderr: "piped" })
    .output();
  assertEquals(out.code, 0, `${command}: ${new TextDecoder().decode(out.stderr)}`);
}

const read = (p: string) => Deno.readTextFile(p).catch(() => null);

/** A recorder over `ws`, one turn begun; `run` captures one command like the bash tool's call would be. */
function recorder(home: string, ws: string, more: Partial<RecorderOptions> = {}) {
  const notes: string[] = [];
  const rec = new Checkpoints({
    home,
    sessionId: "s1",
    workspace: ws,
    notice: (l) => notes.push(l),
    ...more,
  });
  const run = async (command: string) => {
    const capture = await rec.beforeCall({ tool: "bash", effect: "any" });
    await sh(ws, command);
    await capture!.done();
  };
  const write = async (path: string, text: string) => {
    const capture = await rec.beforeCall({ tool: "write_file", effect: { files: [path] } });
    await Deno.writeTextFile(resolve(ws, path), text);
    await capture?.done();
  };
  const store = new CheckpointStore(storeDir(home, "s1"));
  const changes = () => readChanges(store, "s1").changes;
  const rewindTo = (to: number, n: number) => {
    const plan = planCode(store, { root: ws, changes: changes(), to });
    applyCode(store, plan, { root: ws, n });
    return plan;
  };
  return { rec, notes, run, write, changes, rewindTo, store };
}

for (const watch of [true, false]) {
  const how = watch ? "through the file watch" : "by walking the workspace";
  Deno.test(`creates, overwrites and deletes by a command are kept and restored, ${how}`, async () => {
    await using home = await tempDir();
    await using ws = await tempDir();
    await Deno.writeTextFile(join(ws.path, "c.txt"), "c original\n");
    await Deno.writeTextFile(join(ws.path, "d.txt"), "d original\n");
    const r = recorder(home.path, ws.path, { watch });
    try {
      r.rec.beginTurn(1);
      await r.write("a.txt", "a turn 1\n");
      r.rec.beginTurn(2);
      await r.write("a.txt", "a turn 2\n");
      await r.run("echo new > b.txt && echo changed > c.txt && rm d.txt");
      await r.run("ls -la && cat c.txt");
      const stats = r.rec.stats();
      assertEquals(stats.watching, watch);
      if (watch) assertEquals([stats.walks, stats.settled], [0, 4], "the events were enough, no walk");
      else assertEquals(stats.walks, 4);
    } finally {
      await r.rec.close();
    }
    assertEquals(r.notes, []);
    assertEquals(r.changes().map((c) => [c.n, c.path, c.by]), [
      [1, "a.txt", "write_file"],
      [2, "a.txt", "write_file"],
      [2, "b.txt", "bash"],
      [2, "c.txt", "bash"],
      [2, "d.txt", "bash"],
    ]);
    const plan = r.rewindTo(1, 3);
    assertEquals(plan.map((f) => [f.path, f.changedSince]), [
      ["a.txt", false],
      ["b.txt", false],
      ["c.txt", false],
      ["d.txt", false],
    ]);
    assertEquals(await read(join(ws.path, "a.txt")), "a turn 1\n");
    assertEquals(await read(join(ws.path, "b.txt")), null);
    assertEquals(await read(join(ws.path, "c.txt")), "c original\n");
    assertEquals(await read(join(ws.path, "d.txt")), "d original\n");
    r.rewindTo(2, 4);
    assertEquals(await read(join(ws.path, "a.txt")), "a turn 2\n");
    assertEquals(await read(join(ws.path, "b.txt")), "new\n");
    assertEquals(await read(join(ws.path, "c.txt")), "changed\n");
    assertEquals(await read(join(ws.path, "d.txt")), null);
  });

  Deno.test(`a user's edit between two commands is what a rewind restores, ${how}`, async () => {
    await using home = await tempDir();
    await using ws = await tempDir();
    await Deno.writeTextFile(join(ws.path, "c.txt"), "c original\n");
    const r = recorder(home.path, ws.path, { watch });
    try {
      r.rec.beginTurn(1);
      await r.run("true");
      await Deno.writeTextFile(join(ws.path, "c.txt"), "the user's edit\n");
      r.rec.beginTurn(2);
      await r.run("echo by bash > c.txt");
    } finally {
      await r.rec.close();
    }
    r.rewindTo(1, 3);
    assertEquals(await read(join(ws.path, "c.txt")), "the user's edit\n");
  });
}

Deno.test("a burst of changes is caught by a walk; new and renamed folders are followed", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await sh(ws.path, "mkdir -p old/deep && for i in $(seq 1 30); do echo $i > old/deep/f$i; done");
  const r = recorder(home.path, ws.path);
  try {
    r.rec.beginTurn(1);
    await r.run("mkdir -p new/a/b && echo x > new/a/b/c");
    assertEquals(r.rec.stats().walks, 0);
    await r.run("mv old moved && for i in $(seq 1 200); do echo $i > many$i; done");
    const walks = r.rec.stats().walks;
    assert(walks >= 1, "the burst overflowed the event queue: a walk");
    await r.run("echo late > moved/deep/f1");
    assertEquals(r.rec.stats().walks, walks, "after a walk, a quiet window is trusted again");
  } finally {
    await r.rec.close();
  }
  const paths = new Set(r.changes().map((c) => c.path));
  for (const p of ["new/a/b/c", "old/deep/f7", "moved/deep/f7", "many150", "moved/deep/f1"]) {
    assert(paths.has(p), `${p} recorded`);
  }
  r.rewindTo(0, 2);
  assertEquals(await read(join(ws.path, "old/deep/f1")), "1\n");
  assertEquals(await read(join(ws.path, "moved/deep/f1")), null);
  assertEquals(await read(join(ws.path, "many7")), null);
  assertEquals(await read(join(ws.path, "new/a/b/c")), null);
});

Deno.test("ignored and oversized files are not kept, each said in one line; a path outside too", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using outside = await tempDir();
  await Deno.writeTextFile(join(ws.path, ".gitignore"), "dist/\n*.log\n");
  const r = recorder(home.path, ws.path, { settings: { max_file_mb: 0.001 } });
  try {
    r.rec.beginTurn(1);
    await r.run("head -c 5000 /dev/zero > big.bin");
    await r.run("mkdir dist && echo built > dist/app.js && echo x > run.log");
    await r.write(join(outside.path, "o.txt"), "o");
  } finally {
    await r.rec.close();
  }
  assertEquals(r.changes().map((c) => [c.path, c.after]), [["big.bin", { skip: "size" }]]);
  assertEquals(r.notes.length, 3, r.notes.join("\n"));
  assertEquals(
    r.notes[0],
    "checkpoints: not kept, a rewind cannot restore them: big.bin (over the size limit) " +
      "(checkpoints.max_file_mb is 0.001)",
  );
  assertMatch(
    r.notes[1],
    /^checkpoints: not kept, a rewind cannot restore them: (dist\/app\.js|run\.log) \(\.gitignore\), (dist\/app\.js|run\.log) \(\.gitignore\)$/,
  );
  assertMatch(r.notes[2], /o\.txt \(outside the workspace\)$/);
});

Deno.test("a new session of the same workspace hard-links the unchanged contents of the last one", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await sh(ws.path, "for i in $(seq 1 20); do echo file $i > f$i; done");
  for (const id of ["20260101-000000-aaaaaa", "20260101-000001-bbbbbb"]) {
    const rec = new Checkpoints({ home: home.path, sessionId: id, workspace: ws.path });
    rec.beginTurn(1);
    const capture = await rec.beforeCall({ tool: "bash", effect: "any" });
    await capture!.done();
    await rec.close();
  }
  const first = new CheckpointStore(storeDir(home.path, "20260101-000000-aaaaaa"));
  const second = new CheckpointStore(storeDir(home.path, "20260101-000001-bbbbbb"));
  const packs = (s: CheckpointStore) => [...Deno.readDirSync(join(s.dir, "packs"))].map((e) => e.name).sort();
  assertEquals(packs(second), packs(first), "the second store has the first one's packs and wrote none");
  for (const name of packs(second)) assertEquals(Deno.statSync(join(second.dir, "packs", name)).nlink, 2);
  assertEquals(second.bytes(), first.bytes());
  assertEquals(second.bytes(), 9 * "file 1\n".length + 11 * "file 10\n".length, "the 20 contents, once");
});

Deno.test("stores past keep_sessions are pruned, newest kept, a live session's never", async () => {
  await using home = await tempDir();
  const ids = Array.from({ length: 6 }, (_, i) => `20260101-00000${i}-abcdef`);
  for (const id of ids) Deno.mkdirSync(storeDir(home.path, id), { recursive: true });
  Deno.writeTextFileSync(join(home.path, "sessions", `${ids[0]}.jsonl.lock`), JSON.stringify({ pid: 1 }));
  const removed = pruneStores(home.path, { keep: 3, current: ids[5] });
  assertEquals(removed.sort(), [ids[1], ids[2]]);
  assert(Deno.statSync(storeDir(home.path, ids[0])).isDirectory, "pid 1 is alive: its store stays");
});

Deno.test("a store grown past twice its workspace is not inherited: the next session starts fresh packs", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const big = "x".repeat(9 * 1024 * 1024);
  await Deno.writeTextFile(join(ws.path, "big.txt"), big + "1");
  const ids = ["aaaaaa", "bbbbbb", "cccccc", "dddddd"].map((s, i) => `20260101-00000${i}-${s}`);
  for (const [i, id] of ids.entries()) {
    const rec = new Checkpoints({ home: home.path, sessionId: id, workspace: ws.path });
    rec.beginTurn(1);
    const capture = await rec.beforeCall({ tool: "bash", effect: "any" });
    await Deno.writeTextFile(join(ws.path, "big.txt"), big + String(i + 2));
    await capture!.done();
    await rec.close();
  }
  const bytes = ids.map((id) => new CheckpointStore(storeDir(home.path, id)).bytes());
  assertEquals(
    bytes.map((b) => b / (big.length + 1)),
    [2, 3, 4, 2],
    "each store inherits the last one's contents until they pass twice the workspace plus 16 MB",
  );
});
