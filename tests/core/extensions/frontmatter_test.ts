import { FrontmatterError, parseFrontmatter } from "../../../core/mod.ts";
import { plainMapping } from "../../../core/extensions/frontmatter.ts";
import { assert, assertEquals, assertRejects } from "../../helpers.ts";

Deno.test("frontmatter: keys, lists and nested maps; the body and the line it starts on", async () => {
  const fm = await parseFrontmatter(
    '---\nname: x\nallowed-tools: [Read, Grep]\nmetadata:\n  version: "1.0"\n---\n# Title\nbody\n',
    "f.md",
  );
  assertEquals(fm.data, { name: "x", "allowed-tools": ["Read", "Grep"], metadata: { version: "1.0" } });
  assertEquals(fm.body, "# Title\nbody\n");
  assertEquals(fm.bodyLine, 7);
});

Deno.test("frontmatter: a file without one is all body; an empty block is no keys", async () => {
  assertEquals(await parseFrontmatter("just text\n", "f.md"), { data: {}, body: "just text\n", bodyLine: 1 });
  assertEquals((await parseFrontmatter("---\n---\nbody", "f.md")).data, {});
});

Deno.test("frontmatter errors name the file and the line: bad YAML, not a mapping, never closed", async () => {
  await assertRejects(
    () => parseFrontmatter("---\nname: a\ndescription: [x\n  : :\n---\n", "a.md"),
    /^a\.md:\d+: invalid YAML: /,
  );
  await assertRejects(
    () => parseFrontmatter("---\n- a\n- b\n---\n", "b.md"),
    /^b\.md:2: the frontmatter is not a YAML mapping/,
  );
  await assertRejects(
    () => parseFrontmatter("---\nname: a\n", "c.md"),
    /^c\.md:1: the frontmatter opened by --- is never closed/,
  );
  await assertRejects(
    () => parseFrontmatter("---\na: 1\na: 2\n---\n", "d.md"),
    /^d\.md:3: invalid YAML: .*[Mm]ap keys must be unique/,
  );
  const err = await parseFrontmatter("---\nok: 1\nbad: [\n---\n", "e.md").then(() => undefined, (e) => e);
  assert(err instanceof FrontmatterError, "a FrontmatterError");
  assertEquals([err.file, err.line > 1], ["e.md", true]);
});

Deno.test("frontmatter: a billion-laughs alias bomb is refused, not expanded", async () => {
  const bomb = [
    "---",
    "a: &a [x, x, x, x, x, x, x, x, x]",
    ...Array.from({ length: 8 }, (_, i) => {
      const p = String.fromCharCode(97 + i);
      const n = String.fromCharCode(98 + i);
      return `${n}: &${n} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`;
    }),
    "---",
    "",
  ].join("\n");
  await assertRejects(() => parseFrontmatter(bomb, "bomb.md"), /^bomb\.md:\d+: invalid YAML: /);
});

Deno.test("plain `key: text` frontmatter is read without the YAML parser, with the meaning YAML gives it", async () => {
  const { parse } = await import("yaml");
  const read = [
    "name: demo\ndescription: Demo skill: answers questions.\n",
    "name: demo\ndescription: Demo skill, answers questions about the demo.\n",
    "description: Review a file\n",
    "description: Don't stop (ever); then go/come back - fine!\nlicense: MIT  \n",
    "name: a\r\ndescription: b\r\n",
    "\nname: a\n\ndescription: b c  d\n",
    "yes: no\non: off\n",
    "",
  ];
  for (const text of read) {
    const plain = plainMapping(text);
    assertEquals(
      plain !== undefined,
      text !== "name: demo\ndescription: Demo skill: answers questions.\n",
      text,
    );
    if (plain) assertEquals(plain, parse(text) ?? {}, text);
  }
  const left = [
    "description: true\n",
    "description: Null\n",
    "description: 12 things\n",
    "description: a # comment\n",
    "description: 'quoted'\n",
    "description: [a, b]\n",
    "argument-hint: <path>\n",
    "name: a\nname: b\n",
    "tools:\n  - a\n",
    "description: café\n",
    "description: a\tb\n",
    "# comment\nname: a\n",
    "description:\n",
    "  name: a\n",
  ];
  for (const text of left) assertEquals(plainMapping(text), undefined, text);
  const fm = await parseFrontmatter("---\nname: demo\ndescription: Says hi.\n---\nBody\n", "x.md");
  assertEquals(fm, { data: { name: "demo", description: "Says hi." }, body: "Body\n", bodyLine: 5 });
});
