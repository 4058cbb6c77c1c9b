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
import { connectsMcp } from "../../../core/cli/early.ts";

Deno.test("navi tools --json prints the twelve built-ins and call_tool, find_tools as OpenAI function tools", async () => {
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
    "bash_output",
    "kill_shell",
    "todo_write",
    "skill",
    "task",
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
  assertMatch(r.stdout, /14 tools, mode ask, fingerprint [0-9a-f]{8}/);
});

Deno.test("an invalid config.json stops navi with exit 2 naming the file and field, without the key", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { providers: { p: { base_url: 42, api_key: "sk-test-SECRET-123" } } });
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

Deno.test("an unknown option or a bare prompt is one line with a hint, not the whole help", async () => {
  await using home = await tempDir();
  const opt = await runNavi(["--bogus"], { home: home.path });
  assertEquals(opt.code, 1);
  assertEquals(opt.stderr, "navi: unknown option '--bogus' (navi --help lists the commands and options)\n");
  const prompt = await runNavi(["fix the bug"], { home: home.path });
  assertEquals(prompt.code, 1);
  assertEquals(prompt.stderr.trim().split("\n").length, 1, prompt.stderr);
  assertMatch(
    prompt.stderr,
    /^navi: unexpected argument "fix the bug": to send a prompt use navi -p "fix the bug"/,
  );
});

Deno.test("navi doctor checks config, the provider's /models, MCP, plugins and the terminal", async () => {
  await using home = await tempDir();
  const server = startLlmServer([], { models: ["m", "other"] });
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const ok = await runNavi(["doctor"], { home: home.path });
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertMatch(ok.stdout, /^✓ config +.*config\.json is valid/m);
    assertMatch(
      ok.stdout,
      /^✓ provider +local \(http:\/\/127\.0\.0\.1:\d+\/v1\), model m: reachable, \/models lists 2 models$/m,
    );
    assertMatch(ok.stdout, /^✓ mcp +no MCP servers configured$/m);
    assertMatch(ok.stdout, /^. sandbox +(enforced|off|unavailable)/m);
    assertMatch(ok.stdout, /^! terminal +stdin is not a terminal/m);
    await writeConfig(home.path, llmConfig("http://127.0.0.1:9/v1", { model: "gone" }));
    const bad = await runNavi(["doctor"], { home: home.path });
    assertEquals(bad.code, 1);
    assertMatch(bad.stdout, /^✗ provider +.*cannot reach local/m);
    assertMatch(bad.stdout, /^ {2}fix: check base_url, the API key and the network$/m);
    await Deno.writeTextFile(join(home.path, "config.json"), '{"model": 3}');
    const broken = await runNavi(["doctor"], { home: home.path });
    assertEquals(broken.code, 1);
    assertMatch(broken.stdout, /^✗ config +.*config\.json: model: /m);
    assertMatch(broken.stdout, /^- provider +config\.json is invalid$/m);
  } finally {
    await server.close();
  }
});

Deno.test("the pre-scan foresees the commands that connect MCP servers (they start before commander loads)", () => {
  const yes = [
    [],
    ["-p", "hi"],
    ["--print", "tools"],
    ["--model", "m", "-c"],
    ["tools", "--json"],
    ["mcp"],
    ["mcp", "list", "--tools"],
    ["mcp", "resources", "x"],
    ["--approval", "auto"],
    ["-p", "--input-format", "stream-json", "--output-format", "stream-json"],
  ];
  const no = [
    ["acp"],
    ["sessions"],
    ["mcp", "add", "x", "--", "tools"],
    ["mcp", "login", "x"],
    ["plugins"],
    ["--help"],
    ["-p", "x", "-h"],
    ["sandbox"],
    ["doctor"],
    ["fix", "the", "bug"],
  ];
  for (const a of yes) assertEquals(connectsMcp(a), true, a.join(" "));
  for (const a of no) assertEquals(connectsMcp(a), false, a.join(" "));
});
