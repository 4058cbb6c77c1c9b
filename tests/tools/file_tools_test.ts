import { join } from "node:path";
import readFile from "../../tools/read_file.ts";
import writeFile from "../../tools/write_file.ts";
import editFile from "../../tools/edit_file.ts";
import listDir from "../../tools/list_dir.ts";
import type { FileAccess } from "../../core/mod.ts";
import { assert, assertEquals, assertMatch, tempDir, toolContext } from "../helpers.ts";

Deno.test("read_file returns numbered lines and pages with offset/limit", async () => {
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "a.txt"), "one\ntwo\nthree\n");
  const r = await readFile.run({ path: "a.txt" }, toolContext(ws.path));
  assert(r.ok);
  assertEquals(r.content, "     1\tone\n     2\ttwo\n     3\tthree");
  assertEquals(r.total_lines, 3);
  const page = await readFile.run({ path: "a.txt", offset: 2, limit: 1 }, toolContext(ws.path));
  assert(page.ok);
  assertEquals(page.content, "     2\ttwo");
  assertEquals(page.next_offset, 3);
});

Deno.test("read_file refuses binary files with a hint and attaches images", async () => {
  await using ws = await tempDir();
  await Deno.writeFile(join(ws.path, "b.bin"), new Uint8Array([1, 0, 2, 3]));
  const r = await readFile.run({ path: "b.bin" }, toolContext(ws.path));
  assert(!r.ok);
  assertMatch(r.error, /binary file .*bash/);
  await Deno.writeFile(join(ws.path, "p.png"), new Uint8Array([137, 80, 78, 71, 0]));
  const img = await readFile.run({ path: "p.png" }, toolContext(ws.path));
  assert(img.ok && img._multimodal === true);
  assertMatch(img._image_data_url as string, /^data:image\/png;base64,/);
  const missing = await readFile.run({ path: "nope.txt" }, toolContext(ws.path));
  assert(!missing.ok);
  assertMatch(missing.error, /File not found: nope\.txt/);
});

Deno.test("paths outside the workspace are refused: .., absolute, symlink", async () => {
  await using ws = await tempDir();
  await using outside = await tempDir();
  await Deno.writeTextFile(join(outside.path, "secret.txt"), "s");
  await Deno.symlink(outside.path, join(ws.path, "link"));
  const asked: string[] = [];
  const ctx = toolContext(ws.path, { asked });
  for (
    const path of [
      join("..", outside.path.split("/").pop()!, "secret.txt"),
      join(outside.path, "secret.txt"),
      "link/secret.txt",
    ]
  ) {
    const r = await readFile.run({ path }, ctx);
    assert(!r.ok, `refused ${path}`);
    assertMatch(r.error, /outside the workspace/);
  }
  const w = await writeFile.run({ path: "link/new.txt", content: "x" }, ctx);
  assert(!w.ok);
  assert(!(await Deno.stat(join(outside.path, "new.txt")).catch(() => null)), "nothing written outside");
  assertEquals(asked.length, 4, "each refusal went through confirm");
  const allowed = await readFile.run(
    { path: join(outside.path, "secret.txt") },
    toolContext(ws.path, { allow: true }),
  );
  assert(allowed.ok, "confirm can allow it");
});

Deno.test("write_file creates parents and reports created", async () => {
  await using ws = await tempDir();
  const r = await writeFile.run({ path: "d/e/f.txt", content: "héllo" }, toolContext(ws.path));
  assertEquals(r, {
    ok: true,
    path: "d/e/f.txt",
    bytes: 6,
    created: true,
    _diff: { kind: "diff", path: "d/e/f.txt", before: null, after: "héllo" },
  });
  assertEquals(await Deno.readTextFile(join(ws.path, "d/e/f.txt")), "héllo");
  const again = await writeFile.run({ path: "d/e/f.txt", content: "x" }, toolContext(ws.path));
  assert(again.ok && again.created === false);
  assertEquals(again._diff, { kind: "diff", path: "d/e/f.txt", before: "héllo", after: "x" });
});

Deno.test("edit_file replaces one unique match, all with replace_all, and fails otherwise", async () => {
  await using ws = await tempDir();
  const f = join(ws.path, "c.ts");
  await Deno.writeTextFile(f, "a = 1;\nb = 1;\n");
  const ctx = toolContext(ws.path);
  const missing = await editFile.run({ path: "c.ts", old_string: "zzz", new_string: "y" }, ctx);
  assert(!missing.ok);
  assertMatch(missing.error, /not found/);
  const ambiguous = await editFile.run({ path: "c.ts", old_string: "= 1", new_string: "= 2" }, ctx);
  assert(!ambiguous.ok);
  assertMatch(ambiguous.error, /occurs 2 times/);
  assertEquals(await Deno.readTextFile(f), "a = 1;\nb = 1;\n", "file untouched after failures");
  assertEquals(await editFile.run({ path: "c.ts", old_string: "a = 1", new_string: "a = $&" }, ctx), {
    ok: true,
    path: "c.ts",
    replacements: 1,
    _diff: { kind: "diff", path: "c.ts", before: "a = 1;\nb = 1;\n", after: "a = $&;\nb = 1;\n" },
  });
  assertEquals(await Deno.readTextFile(f), "a = $&;\nb = 1;\n", "replacement is literal");
  const all = await editFile.run({ path: "c.ts", old_string: ";", new_string: "", replace_all: true }, ctx);
  assert(all.ok && all.replacements === 2);
});

Deno.test("list_dir lists entries with directories marked", async () => {
  await using ws = await tempDir();
  await Deno.mkdir(join(ws.path, "sub"));
  await Deno.writeTextFile(join(ws.path, "b.txt"), "12345");
  const r = await listDir.run({}, toolContext(ws.path));
  assert(r.ok);
  assertEquals(r.entries, "b.txt  (5 bytes)\nsub/");
  const notDir = await listDir.run({ path: "b.txt" }, toolContext(ws.path));
  assert(!notDir.ok);
});

Deno.test("a dangling symlink whose target is outside is a write outside: asked, and refused nothing is created", async () => {
  await using ws = await tempDir();
  await using outside = await tempDir();
  const target = join(outside.path, "created-through-link.txt");
  await Deno.symlink(target, join(ws.path, "dangling"));
  await Deno.symlink(join(outside.path, "newdir", "deep.txt"), join(ws.path, "dangling-deep"));
  await Deno.symlink("dangling", join(ws.path, "chain"));
  await Deno.symlink(`../${outside.path.split("/").pop()}/relative.txt`, join(ws.path, "relative"));
  const asked: string[] = [];
  const ctx = toolContext(ws.path, { asked });
  for (const path of ["dangling", "chain", "relative", "dangling-deep"]) {
    const w = await writeFile.run({ path, content: "x" }, ctx);
    assert(!w.ok, `refused ${path}`);
    assertMatch(w.error, /resolves outside the workspace \(.*\)/);
  }
  assertEquals(asked, [
    target,
    target,
    join(outside.path, "relative.txt"),
    join(outside.path, "newdir", "deep.txt"),
  ]);
  assertEquals([...Deno.readDirSync(outside.path)], [], "nothing was created outside");
  const allowed = await writeFile.run(
    { path: "dangling", content: "ok" },
    toolContext(ws.path, { allow: true }),
  );
  assert(allowed.ok, "approval allows it");
  assertEquals(await Deno.readTextFile(target), "ok");
});

Deno.test("a dangling symlink that stays inside the workspace is written without asking", async () => {
  await using ws = await tempDir();
  await Deno.symlink(join(ws.path, "target.txt"), join(ws.path, "inside-link"));
  const asked: string[] = [];
  const w = await writeFile.run({ path: "inside-link", content: "in" }, toolContext(ws.path, { asked }));
  assert(w.ok, JSON.stringify(w));
  assertEquals(asked, []);
  assertEquals(await Deno.readTextFile(join(ws.path, "target.txt")), "in");
});

Deno.test("a file with a second hard link is not written or edited without approval; it can still be read", async () => {
  await using ws = await tempDir();
  await using outside = await tempDir();
  const theirs = join(outside.path, "config");
  await Deno.writeTextFile(theirs, "original");
  await Deno.link(theirs, join(ws.path, "innocent.txt"));
  const asked: string[] = [];
  const ctx = toolContext(ws.path, { asked });
  const w = await writeFile.run({ path: "innocent.txt", content: "changed" }, ctx);
  assert(!w.ok);
  assertMatch(w.error, /is a file with 2 hard links; writing it may change a file outside the workspace/);
  const e = await editFile.run({ path: "innocent.txt", old_string: "original", new_string: "changed" }, ctx);
  assert(!e.ok);
  assertEquals(asked.length, 2);
  assertMatch(asked[0], /innocent\.txt has 2 hard links/);
  assertEquals(await Deno.readTextFile(theirs), "original");
  const r = await readFile.run({ path: "innocent.txt" }, ctx);
  assert(r.ok, "reading is not a write");
  const fresh = await writeFile.run({ path: "plain.txt", content: "x" }, ctx);
  assert(fresh.ok);
  const again = await writeFile.run({ path: "plain.txt", content: "y" }, ctx);
  assert(again.ok, "a file with one name is written as before");
});

/** File access like an editor's: open buffers hold text the disk does not have yet; writes go to the buffers. */
function editorBuffers(buffers: Map<string, string>, log: string[]): FileAccess {
  return {
    readText: (path) => {
      log.push(`read ${path}`);
      const text = buffers.get(path);
      return text === undefined ? Deno.readTextFile(path) : Promise.resolve(text);
    },
    writeText: (path, content) => {
      log.push(`write ${path}`);
      buffers.set(path, content);
      return Promise.resolve();
    },
  };
}

Deno.test("file tools read and write through the context's file access: the unsaved buffer is what they see", async () => {
  await using ws = await tempDir();
  const f = join(ws.path, "c.ts");
  await Deno.writeTextFile(f, "on disk\n");
  const buffers = new Map([[f, "unsaved = 1;\n"]]);
  const log: string[] = [];
  const ctx = { ...toolContext(ws.path), files: editorBuffers(buffers, log) };
  const read = await readFile.run({ path: "c.ts" }, ctx);
  assert(read.ok);
  assertEquals(read.content, "     1\tunsaved = 1;");
  const edit = await editFile.run({ path: "c.ts", old_string: "= 1", new_string: "= 2" }, ctx);
  assert(edit.ok, JSON.stringify(edit));
  assertEquals(buffers.get(f), "unsaved = 2;\n");
  assertEquals(edit._diff, { kind: "diff", path: "c.ts", before: "unsaved = 1;\n", after: "unsaved = 2;\n" });
  const preview = await editFile.preview!({ path: "c.ts", old_string: "= 2", new_string: "= 3" }, ctx);
  assertEquals(preview?.before, "unsaved = 2;\n");
  const written = await writeFile.run({ path: "d/new.txt", content: "fresh" }, ctx);
  assert(written.ok && written.created === true);
  assertEquals(buffers.get(join(ws.path, "d/new.txt")), "fresh");
  assertEquals(await Deno.readTextFile(f), "on disk\n", "the disk is the editor's business");
  assertEquals(log, [
    `read ${f}`,
    `read ${f}`,
    `write ${f}`,
    `read ${f}`,
    `write ${join(ws.path, "d/new.txt")}`,
  ]);
});

Deno.test("a routed read that fails is one error naming the file", async () => {
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "a.txt"), "x\n");
  const files: FileAccess = {
    readText: () => Promise.reject(new Error("the editor refused")),
    writeText: () => Promise.resolve(),
  };
  const r = await readFile.run({ path: "a.txt" }, { ...toolContext(ws.path), files });
  assert(!r.ok);
  assertEquals(r.error, "a.txt could not be read: the editor refused");
});
