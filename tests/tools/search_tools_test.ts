import { join } from "node:path";
import glob from "../../tools/glob.ts";
import grep from "../../tools/grep.ts";
import { globToRegExp } from "../../core/mod.ts";
import { startLlmServer } from "../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  toolContext,
  writeConfig,
} from "../helpers.ts";

async function tree(root: string) {
  for (
    const [p, text] of Object.entries({
      "src/a.ts": "export const a = 1;\n// TODO: more\n",
      "src/lib/b.ts": "const b = 2; // TODO later\n",
      "README.md": "TODO docs\n",
      ".git/config": "TODO never\n",
    })
  ) {
    await Deno.mkdir(join(root, p, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, p), text);
  }
  await Deno.writeFile(join(root, "src/bin.dat"), new Uint8Array([84, 79, 68, 79, 0, 1]));
}

Deno.test("globToRegExp handles *, **, ?, braces and classes", () => {
  const t = (g: string, p: string) => globToRegExp(g).test(p);
  assert(t("**/*.ts", "a.ts") && t("**/*.ts", "x/y/a.ts") && !t("*.ts", "x/a.ts"));
  assert(t("src/{a,b}.ts", "src/b.ts") && !t("src/{a,b}.ts", "src/c.ts"));
  assert(t("?.md", "a.md") && t("[ab].md", "b.md") && !t("[ab].md", "c.md"));
  assert(t("mcp__github__*", "mcp__github__x") && t("a.b", "a.b") && !t("a.b", "axb"));
});

Deno.test("glob finds files relative to the search directory and skips .git", async () => {
  await using ws = await tempDir();
  await tree(ws.path);
  const r = await glob.run({ pattern: "**/*.ts" }, toolContext(ws.path));
  assert(r.ok);
  assertEquals(r.files, "src/a.ts\nsrc/lib/b.ts");
  const sub = await glob.run({ pattern: "*.ts", path: "src" }, toolContext(ws.path));
  assert(sub.ok);
  assertEquals(sub.files, "a.ts");
  const all = await glob.run({ pattern: "**" }, toolContext(ws.path));
  assert(all.ok && !(all.files as string).includes(".git"));
});

Deno.test("grep returns file:line:text, skips .git and binary files, filters by glob", async () => {
  await using ws = await tempDir();
  await tree(ws.path);
  const r = await grep.run({ pattern: "TODO" }, toolContext(ws.path));
  assert(r.ok);
  assertEquals(
    r.matches,
    "README.md:1:TODO docs\nsrc/a.ts:2:// TODO: more\nsrc/lib/b.ts:1:const b = 2; // TODO later",
  );
  const filtered = await grep.run({ pattern: "TODO", glob: "**/*.ts" }, toolContext(ws.path));
  assert(filtered.ok && filtered.count === 2);
  const one = await grep.run({ pattern: "const \\w", path: "src/lib/b.ts" }, toolContext(ws.path));
  assert(one.ok);
  assertEquals(one.matches, "src/lib/b.ts:1:const b = 2; // TODO later");
  const bad = await grep.run({ pattern: "(" }, toolContext(ws.path));
  assert(!bad.ok);
  assertMatch(bad.error, /Invalid regular expression/);
  const outside = await grep.run({ pattern: "x", path: "/etc" }, toolContext(ws.path));
  assert(!outside.ok);
  assertMatch(outside.error, /outside the workspace/);
});

Deno.test("grep cannot hang navi: ^(a+)+$ on a 35-character line answers at once, in plan mode too", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "evil.txt"), "a".repeat(34) + "!\naaaa\n");
  const server = startLlmServer([
    { toolCalls: [{ name: "grep", arguments: JSON.stringify({ pattern: "^(a+)+$" }) }] },
    { text: "searched" },
  ]);
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi(["-p", "search", "--approval", "plan"], {
      home: home.path,
      cwd: ws.path,
      timeoutMs: 30_000,
    });
    assertEquals(r.code, 0, `navi did not finish: ${r.stderr}`);
    assertEquals(r.stdout, "searched\n");
    const result = JSON.parse((server.requests[1].body.messages as { content: string }[]).at(-1)!.content);
    assertEquals(result, { ok: true, count: 1, matches: "evil.txt:2:aaaa" });
  } finally {
    await server.close();
  }
});

Deno.test("grep takes JavaScript syntax, lookbehind included; lookahead and backreferences get a clear error", async () => {
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "a.ts"), "const price = $42;\nlet word = word;\nA\tB\n");
  const ctx = toolContext(ws.path);
  const hits = async (pattern: string) => {
    const r = await grep.run({ pattern }, ctx);
    assert(r.ok, JSON.stringify(r));
    return r.count;
  };
  assertEquals(await hits("(?<=\\$)\\d+"), 1);
  assertEquals(await hits("(?<name>\\w+) = "), 2);
  assertEquals(await hits("\\u0041\\tB"), 1);
  assertEquals(await hits("\\bword\\b"), 1);
  assertEquals(await hits("[^]"), 3);
  for (const pattern of ["(\\w+) = \\1", "word(?= )", "(?<w>\\w+) = \\k<w>"]) {
    const r = await grep.run({ pattern }, ctx);
    assert(!r.ok);
    assertMatch(r.error, /^Invalid regular expression: .*lookahead and backreferences are not available/);
  }
});
