import { join } from "node:path";
import { startLlmServer } from "../../../support/llm_server.ts";
import { pluginsInit, pluginsList } from "../../../../core/cli/commands/plugins.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  ROOT,
  runNavi,
  tempDir,
  writeConfig,
} from "../../../helpers.ts";

async function pluginHome(home: string) {
  const dir = join(home, "plugins");
  await Deno.mkdir(dir);
  await Deno.copyFile(join(ROOT, "plugins", "examples", "word_count.ts"), join(dir, "word_count.ts"));
  await Deno.writeTextFile(
    join(dir, "broken_syntax.ts"),
    "export default function (navi: any) {\n  return (;\n}\n",
  );
  await Deno.writeTextFile(join(dir, "no_default.js"), "export const x = 1;\n");
  await Deno.writeTextFile(
    join(dir, "throws.mjs"),
    "export default () => { throw new Error('no luck'); };\n",
  );
}

Deno.test("a typed plugin and three broken ones: tools --json, plugins, and -p calling the good tool", async () => {
  await using home = await tempDir();
  await pluginHome(home.path);
  const tools = await runNavi(["tools", "--json"], { home: home.path });
  assertEquals(tools.code, 0, tools.stderr);
  const names = JSON.parse(tools.stdout).map((t: { function: { name: string } }) => t.function.name);
  assertEquals(names.at(-1), "word_count", "plugin tools come after the built-ins");
  assertEquals(names.length, 15, "11 built-ins, task, call_tool, find_tools and the plugin's tool");
  assertEquals(tools.stderr.trim().split("\n").length, 3, "one warning line per broken plugin");

  const list = await runNavi(["plugins"], { home: home.path });
  assertEquals(list.code, 0, list.stderr);
  assertMatch(list.stdout, /broken_syntax\.ts\s+failed\s+syntax error at broken_syntax\.ts:2:\d+: /);
  assertMatch(list.stdout, /no_default\.js\s+failed\s+the default export must be a function/);
  assertMatch(list.stdout, /throws\.mjs\s+failed\s+register\(\) failed: no luck/);
  assertMatch(list.stdout, /word_count\.ts\s+loaded\s+read \$WORKSPACE\s+word_count/);

  const server = startLlmServer([
    { toolCalls: [{ name: "word_count", arguments: '{"text":"one two three"}' }] },
    { text: "Three words." },
  ]);
  try {
    await writeConfig(home.path, { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" });
    const r = await runNavi(["-p", "count"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "Three words.\n");
    const result = JSON.parse((server.requests[1].body.messages as { content: string }[]).at(-1)!.content);
    assertEquals(result, { ok: true, lines: 1, words: 3, characters: 13 });
  } finally {
    await server.close();
  }
});

Deno.test("plugins init writes a template that loads, and refuses to overwrite", async () => {
  await using home = await tempDir();
  const r = await runNavi(["plugins", "init", "greet"], { home: home.path });
  assertEquals(r.code, 0, r.stderr);
  assert(await Deno.stat(join(home.path, "plugins", "navi.d.ts")));
  const again = await runNavi(["plugins", "init", "greet"], { home: home.path });
  assertEquals(again.code, 1);
  assertMatch(again.stderr, /greet\.ts already exists; not overwriting it/);
  const list = await runNavi(["plugins"], { home: home.path });
  assertMatch(list.stdout, /greet\.ts\s+loaded\s+read \$WORKSPACE\s+greet/);
});

Deno.test("navi.log writes to $NAVI_HOME/logs/plugins.log", async () => {
  await using home = await tempDir();
  await Deno.mkdir(join(home.path, "plugins"));
  await Deno.writeTextFile(
    join(home.path, "plugins", "talk.js"),
    'export default (navi) => { navi.log("hello from talk"); };\n',
  );
  const r = await runNavi(["plugins"], { home: home.path });
  assertMatch(r.stdout, /talk\.js\s+loaded\s+read \$WORKSPACE\s+\(no tools\)/);
  assertMatch(
    await Deno.readTextFile(join(home.path, "logs", "plugins.log")),
    /\[plugin talk\.js\] hello from talk\n$/,
  );
});

Deno.test("plugins init refuses a second name that makes the same tool (my-tool, my_tool)", async () => {
  await using home = await tempDir();
  const files = { template: "// __NAME__\n", types: "" };
  await pluginsInit(home.path, "my-tool", files);
  await assertRejects(
    () => pluginsInit(home.path, "my_tool", files),
    /my-tool\.ts already makes the tool my_tool; choose another name/,
  );
});

Deno.test("no plugins: the listing names files it ignored and says what a plugin file is", async () => {
  await using home = await tempDir();
  const dir = join(home.path, "plugins");
  await Deno.mkdir(join(dir, "nested"), { recursive: true });
  await Deno.writeTextFile(join(dir, "tool.tsx"), "");
  const text = pluginsList({ dir, reports: () => [] });
  assertEquals(
    text,
    `no plugins in ${dir} (create one with: navi plugins init <name>); ignored nested/, tool.tsx: ` +
      "plugins are .ts, .js or .mjs files directly in that directory",
  );
});
