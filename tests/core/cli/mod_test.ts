import { join } from "node:path";
import { assert, assertEquals, assertMatch, runNavi, tempDir } from "../../helpers.ts";

Deno.test("navi tools --json prints the seven built-ins and call_tool, find_tools as OpenAI function tools", async () => {
  await using home = await tempDir();
  const r = await runNavi(["tools", "--json"], { home: home.path });
  assertEquals(r.code, 0, r.stderr);
  const tools = JSON.parse(r.stdout);
  const names = tools.map((t: { function: { name: string } }) => t.function.name);
  assertEquals(names, [
    "read_file",
    "write_file",
    "edit_file",
    "list_dir",
    "glob",
    "grep",
    "bash",
    "call_tool",
    "find_tools",
  ]);
  assertEquals(new Set(names).size, names.length);
  for (const t of tools) {
    assertEquals(t.type, "function");
    assertEquals(t.function.parameters.type, "object");
    assert(typeof t.function.description === "string" && t.function.description.startsWith("- "));
  }
  assert(!r.stdout.includes("$schema"));
});

Deno.test("navi tools prints a table with approval classes and a fingerprint", async () => {
  await using home = await tempDir();
  const r = await runNavi(["tools"], { home: home.path });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /^bash\s+command\s+Runs a shell command/m);
  assertMatch(r.stdout, /9 tools, mode ask, fingerprint [0-9a-f]{8}/);
});

Deno.test("an invalid config.json stops navi with exit 2 naming the file and field, without the key", async () => {
  await using home = await tempDir();
  await Deno.writeTextFile(
    join(home.path, "config.json"),
    JSON.stringify({ providers: { p: { base_url: 42, api_key: "sk-test-SECRET-123" } } }),
  );
  const r = await runNavi(["tools"], { home: home.path });
  assertEquals(r.code, 2);
  assertMatch(r.stderr, /config\.json: providers\.p\.base_url: /);
  assertEquals(r.stderr.trim().split("\n").length, 1, "one line");
  assert(!(r.stdout + r.stderr).includes("SECRET"));
});

Deno.test("navi --version and --help", async () => {
  await using home = await tempDir();
  const v = await runNavi(["--version"], { home: home.path });
  assertMatch(v.stdout, /^\d+\.\d+\.\d+\n$/);
  const h = await runNavi(["--help"], { home: home.path });
  assertEquals(h.code, 0);
  assertMatch(h.stdout, /Usage: navi/);
  assertMatch(h.stdout, /tools/);
});
