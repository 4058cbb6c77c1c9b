// Warm starts: plugin definitions come from $NAVI_HOME/cache/ and no worker starts until a tool is called.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { assertEquals, assertMatch, llmConfig, ROOT, runNavi, tempDir, writeConfig } from "../../helpers.ts";

async function startedWorkers(home: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(home, "logs", "plugins.log")).catch(() => "");
  return text.split("\n").filter((l) => /worker started|read from its source/.test(l)).map((l) =>
    l.replace(/^\S+ /, "")
  );
}

Deno.test("a warm start starts no worker; a changed file or changed permissions are read again", async () => {
  await using home = await tempDir();
  await Deno.mkdir(join(home.path, "plugins"));
  for (const f of ["word_count.ts", "http_status.ts"]) {
    await Deno.copyFile(join(ROOT, "plugins", "examples", f), join(home.path, "plugins", f));
  }
  const cold = await runNavi(["tools", "--json"], { home: home.path });
  assertEquals(cold.code, 0, cold.stderr);
  assertEquals((await startedWorkers(home.path)).sort(), [
    "[plugin http_status.ts] worker started (registration)",
    "[plugin word_count.ts] definitions read from its source (no worker)",
  ]);
  const warm = await runNavi(["tools", "--json"], { home: home.path });
  assertEquals(warm.stdout, cold.stdout, "the same tools array from the cache");
  assertEquals(
    (await startedWorkers(home.path)).length,
    2,
    "no worker started and no source read on the warm start",
  );

  const file = join(home.path, "plugins", "word_count.ts");
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace("Counts the lines", "Counts lines"));
  await writeConfig(home.path, { plugins: { http_status: { permissions: { net: ["example.com"] } } } });
  const changed = await runNavi(["tools", "--json"], { home: home.path });
  assertMatch(changed.stdout, /Counts lines, words/);
  assertEquals((await startedWorkers(home.path)).slice(2).sort(), [
    "[plugin http_status.ts] worker started (registration)",
    "[plugin word_count.ts] definitions read from its source (no worker)",
  ]);

  const server = startLlmServer([
    { toolCalls: [{ name: "word_count", arguments: '{"text":"a b"}' }] },
    { toolCalls: [{ name: "word_count", arguments: '{"text":"c"}' }] },
    { text: "done" },
  ]);
  try {
    await writeConfig(
      home.path,
      llmConfig(server.url, { plugins: { http_status: { permissions: { net: ["example.com"] } } } }),
    );
    const r = await runNavi(["-p", "count"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(
      (await startedWorkers(home.path)).slice(4),
      ["[plugin word_count.ts] worker started (call)"],
      "one worker for the called plugin, reused by its second call; none for the other",
    );
  } finally {
    await server.close();
  }
});

Deno.test("the REPL announces a new plugin and a changed permission set once", async () => {
  await using home = await tempDir();
  await Deno.mkdir(join(home.path, "plugins"));
  await Deno.copyFile(
    join(ROOT, "plugins", "examples", "word_count.ts"),
    join(home.path, "plugins", "word_count.ts"),
  );
  const notices = async () =>
    (await runNavi([], { home: home.path, stdin: "/exit\n" })).stdout.split("\n").filter((l) =>
      l.includes("plugin")
    );
  assertEquals(await notices(), ["navi: new plugin word_count.ts (word_count) may: read $WORKSPACE"]);
  assertEquals(await notices(), []);
  await writeConfig(home.path, { plugins: { word_count: { permissions: { read: false, env: ["LANG"] } } } });
  assertEquals(await notices(), [
    "navi: plugin word_count.ts permissions changed: env LANG (was: read $WORKSPACE)",
  ]);
  assertEquals(await notices(), []);
});

Deno.test("a cache entry that does not match what the plugin registers is caught before the call runs", async () => {
  await using home = await tempDir();
  await Deno.mkdir(join(home.path, "plugins"));
  await Deno.copyFile(
    join(ROOT, "plugins", "examples", "word_count.ts"),
    join(home.path, "plugins", "word_count.ts"),
  );
  assertEquals((await runNavi(["tools"], { home: home.path })).code, 0);
  const dir = join(home.path, "cache", "plugins");
  const [name] = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("word_count@"));
  const entry = JSON.parse(await Deno.readTextFile(join(dir, name)));
  entry.tools[0].approval = "command";
  entry.tools[0].description = "- Tampered.";
  await Deno.writeTextFile(join(dir, name), JSON.stringify(entry));
  const server = startLlmServer([{ toolCalls: [{ name: "word_count", arguments: '{"text":"a"}' }] }, {
    text: "ok",
  }]);
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi(["-p", "x", "--approval", "auto"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    const messages = server.requests[1].body.messages as { role: string; content: string }[];
    assertMatch(
      JSON.parse(messages.at(-1)!.content).error,
      /^plugin word_count\.ts registered other tools than navi offered/,
    );
    const again = await runNavi(["tools", "--json"], { home: home.path });
    assertMatch(
      again.stdout,
      /Counts the lines/,
      "the bad entry was dropped and the plugin registered again",
    );
  } finally {
    await server.close();
  }
});
