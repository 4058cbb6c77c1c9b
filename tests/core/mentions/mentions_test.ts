import { join } from "node:path";
import {
  completeMention,
  expandMentions,
  fileMentions,
  type MentionProvider,
} from "../../../core/mentions/mod.ts";
import { assertEquals, tempDir } from "../../helpers.ts";

Deno.test("@path completes workspace paths and attaches files; problems are one line each", async () => {
  await using ws = await tempDir();
  await using outside = await tempDir();
  await Deno.mkdir(join(ws.path, "src"));
  await Deno.writeTextFile(join(ws.path, "src", "main.ts"), "console.log(1);\n");
  await Deno.writeTextFile(join(ws.path, "src", "mod.ts"), "");
  await Deno.writeTextFile(join(ws.path, ".hidden"), "");
  await Deno.writeFile(join(ws.path, "img.bin"), new Uint8Array([0, 1, 2, 0]));
  await Deno.writeTextFile(join(outside.path, "secret.txt"), "no");
  await Deno.symlink(join(outside.path, "secret.txt"), join(ws.path, "link.txt"));
  const files = [fileMentions(ws.path)];
  assertEquals(await completeMention("look at @s", 10, files), { start: 9, items: ["src/"] });
  assertEquals(await completeMention("@src/m", 6, files), { start: 1, items: ["src/main.ts", "src/mod.ts"] });
  assertEquals(await completeMention("no mention", 10, files), undefined);
  const r = await expandMentions("explain @src/main.ts, and @img.bin @link.txt @src @nope mail a@b.c", files);
  assertEquals(r.attached, ["src/main.ts (1 lines)"]);
  assertEquals(
    r.text,
    'explain @src/main.ts, and @img.bin @link.txt @src @nope mail a@b.c\n\n<file path="src/main.ts">\nconsole.log(1);\n</file>',
  );
  assertEquals(r.problems, [
    "@img.bin: a binary file; not attached",
    "@link.txt: outside the workspace; not attached",
    "@src: is a directory; mention files",
    "@nope: no such file in the workspace",
  ]);
});

Deno.test("another mention kind plugs in: the first provider that accepts a token owns it", async () => {
  await using ws = await tempDir();
  const resources: MentionProvider = {
    accepts: (t) => t.startsWith("docs:"),
    complete: (p) => ["docs:readme", "docs:api"].filter((x) => x.startsWith(p)),
    expand: (t) => Promise.resolve({ label: t, text: `<resource uri="${t}">text</resource>` }),
  };
  const providers = [resources, fileMentions(ws.path)];
  assertEquals(await completeMention("@docs:a", 7, providers), { start: 1, items: ["docs:api"] });
  const r = await expandMentions("read @docs:readme", providers);
  assertEquals(r.text, 'read @docs:readme\n\n<resource uri="docs:readme">text</resource>');
});
