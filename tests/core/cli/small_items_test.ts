// The smaller items of what the REPL says (piped input, no terminal needed): an edit allowed without a
// question still shows its diff, /approval auto warns, /model warns about a name the provider does not list,
// and /plugins reload counts only the plugins that loaded.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";

Deno.test("an edit allowed by a rule (no question) still shows what it changes", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "greet.ts"), 'export const hi = "Hello " + name;\n');
  const edit = { path: "greet.ts", old_string: '"Hello " + name', new_string: "`Hello, ${name}!`" };
  const server = startLlmServer([
    { toolCalls: [{ name: "edit_file", arguments: JSON.stringify(edit) }] },
    { text: "fixed" },
  ]);
  try {
    await writeConfig(home.path, llmConfig(server.url, { approval: { allow: ["edit_file"] } }));
    const r = await runNavi([], { home: home.path, cwd: ws.path, stdin: "fix the greeting\n" });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(
      r.stdout,
      /● edit_file .*\n {2}changes greet\.ts \(\+1 -1\)\n {2}│ @@ -1,1 \+1,1 @@\n {2}│ 1 - export const hi = "Hello " \+ name;\n {2}│ 1 \+ export const hi = `Hello, \$\{name\}!`;\n {2}⎿ ok/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("/approval auto warns; /model warns about a model the provider does not list; reload counts loaded plugins", async () => {
  await using home = await tempDir();
  await Deno.mkdir(join(home.path, "plugins"));
  const good = (name: string) =>
    `export default (navi) => navi.registerTool({ name: "${name}", description: "- ${name}.", parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true }) });\n`;
  await Deno.writeTextFile(join(home.path, "plugins", "good.js"), good("good_tool"));
  await Deno.writeTextFile(
    join(home.path, "plugins", "bad.js"),
    "export default () => { throw new Error('no'); };\n",
  );
  const server = startLlmServer([], { models: ["m", "gpt-real"] });
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi([], {
      home: home.path,
      stdin: "/approval auto\n/model gpt-nonexistent\n/model gpt-real\n/plugins reload\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(
      r.stdout,
      /approval mode: auto\nnavi: warning: approval mode auto runs every tool without asking\n/,
    );
    assertMatch(
      r.stdout,
      /model set to gpt-nonexistent \(provider local\)\nnavi: warning: the provider does not list gpt-nonexistent \(it lists gpt-real, m\); the next request may fail/,
    );
    assertMatch(r.stdout, /model set to gpt-real \(provider local\)\n(?!navi: warning)/);
    assertMatch(r.stdout, /reloaded 1 plugin, 1 tool; 1 failed\n/);
    assert(!r.stdout.includes("reloaded 2 plugins"), r.stdout);
  } finally {
    await server.close();
  }
});
