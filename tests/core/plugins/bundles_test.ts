// A Claude Code plugin (`.claude-plugin/plugin.json`, commands/, agents/, hooks/hooks.json, .mcp.json with
// `${CLAUDE_PLUGIN_ROOT}`) installed with `navi plugins install` and used as it is, black-box.
import { join } from "node:path";
import { assertEquals, assertMatch, llmConfig, ROOT, runNavi, tempDir, writeConfig } from "../../helpers.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { writeTree } from "../../support/project_fixture.ts";
import { findBundles } from "../../../core/plugins/bundles.ts";

type Msg = { role: string; content?: unknown };

const KIT = {
  ".claude-plugin/plugin.json": JSON.stringify({
    name: "tidy-kit",
    version: "1.2.0",
    description: "Keeps files tidy",
  }),
  "commands/tidy.md": "---\ndescription: Tidy a file\n---\nTidy the file $ARGUMENTS and report.\n",
  "agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews changes\n---\nReview the diff.\n",
  "scripts/strip.sh": `#!/bin/bash\nf=$(jq -r '.tool_input.file_path')\nsed -i 's/[[:space:]]*$//' "$f"\n`,
  "hooks/hooks.json": JSON.stringify({
    hooks: {
      PostToolUse: [{
        matcher: "Write|Edit",
        hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/scripts/strip.sh" }],
      }],
    },
  }),
  ".mcp.json": JSON.stringify({
    mcpServers: {
      kitdocs: {
        command: Deno.execPath(),
        args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")],
        env: { KIT_ROOT: "${CLAUDE_PLUGIN_ROOT}" },
      },
    },
  }),
};

Deno.test("navi plugins install shows what a bundle holds and refuses without a terminal unless --yes", async () => {
  await using home = await tempDir();
  await using src = await tempDir();
  await writeTree(src.path, KIT);
  const refused = await runNavi(["plugins", "install", src.path], { home: home.path });
  assertEquals(refused.code, 1, refused.stderr);
  const dest = join(home.path, "plugins", "tidy-kit");
  assertEquals(refused.stdout.split("\n").slice(0, 7), [
    `plugin bundle tidy-kit 1.2.0 (Claude Code plugin layout) from ${src.path}`,
    "  Keeps files tidy",
    `  hook:     PostToolUse [Write|Edit]: ${dest}/scripts/strip.sh`,
    `  server:   kitdocs: ${Deno.execPath()} run -A ${join(ROOT, "tests/support/mcp_test_server.ts")}`,
    "  commands: /tidy",
    "  agents:   reviewer",
    "not installed: no terminal to ask; run again with --yes to install it",
  ]);
  assertEquals(await Deno.stat(dest).then(() => true, () => false), false);
  const ok = await runNavi(["plugins", "install", src.path, "--yes"], { home: home.path });
  assertEquals(ok.code, 0, ok.stderr);
  assertMatch(ok.stdout, new RegExp(`installed tidy-kit into ${dest}\\n$`));
  assertEquals(await Deno.readTextFile(join(dest, "commands/tidy.md")), KIT["commands/tidy.md"]);
  const again = await runNavi(["plugins", "install", src.path, "--yes"], { home: home.path });
  assertEquals([again.code, again.stdout.trim()], [
    1,
    `${dest} already exists; remove it first to install tidy-kit again`,
  ]);
  assertEquals(
    findBundles([{ dir: join(home.path, "plugins"), level: "user" }]).map((b) => [b.name, b.agents]),
    [
      ["tidy-kit", join(dest, "agents")],
    ],
  );
});

Deno.test("an installed Claude Code plugin works as it is: its command, its PostToolUse hook, its MCP server, its agent", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using src = await tempDir();
  await writeTree(src.path, KIT);
  await Deno.chmod(join(src.path, "scripts/strip.sh"), 0o755);
  const calls = [
    { name: "write_file", arguments: JSON.stringify({ path: "a.txt", content: "messy   \nline\t\n" }) },
    { name: "mcp__kitdocs__getenv", arguments: JSON.stringify({ name: "KIT_ROOT" }) },
  ];
  const server = startLlmServer((_i, body): Step => {
    const done = (body.messages as Msg[]).filter((m) => m.role === "tool").length;
    return calls[done] ? { toolCalls: [calls[done]] } : { text: "tidied" };
  });
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const install = await runNavi(["plugins", "install", src.path, "--yes"], { home: home.path });
    assertEquals(install.code, 0, install.stderr);
    const r = await runNavi(["-p", "/tidy a.txt", "--approval", "auto"], { home: home.path, cwd: ws.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "tidied\n");
    const first = server.requests[0].body.messages as Msg[];
    assertMatch(String(first.at(-1)?.content), /^Tidy the file a\.txt and report\./);
    const tools = server.requests[0].body.tools as { function: { name: string; description: string } }[];
    const task = tools.find((t) => t.function.name === "task");
    assertMatch(String(task?.function.description), /\n {2}- reviewer: Reviews changes(\n|$)/);
    assertEquals(await Deno.readTextFile(join(ws.path, "a.txt")), "messy\nline\n");
    const last = (server.requests[2].body.messages as Msg[]).findLast((m) => m.role === "tool");
    assertMatch(String(last?.content), new RegExp(join(home.path, "plugins", "tidy-kit")));
  } finally {
    await server.close();
  }
});
