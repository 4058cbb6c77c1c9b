// Agent files: Claude Code's format read as it is, folders in precedence order, bad files one line each.
import { join } from "node:path";
import { AgentCatalog, agentFolders, mapToolNames, readAgentFile } from "../../../core/mod.ts";
import { writeTree } from "../../support/project_fixture.ts";
import { assertEquals, assertMatch, tempDir } from "../../helpers.ts";

Deno.test("Claude Code's tool names map to navi's; MCP names and globs pass; the rest is reported", () => {
  assertEquals(
    mapToolNames([
      "Read",
      "Grep",
      "Glob",
      "LS",
      "Bash(git diff:*)",
      "Edit",
      "MultiEdit",
      "Write",
      "TodoWrite",
    ]),
    {
      tools: ["read_file", "grep", "glob", "list_dir", "bash", "edit_file", "write_file", "todo_write"],
      unknown: [],
    },
  );
  assertEquals(mapToolNames(["mcp__docs__search", "mcp__github__*", "read_file", "Task(reviewer)"]), {
    tools: ["mcp__docs__search", "mcp__github__*", "read_file", "task"],
    unknown: [],
  });
  assertEquals(mapToolNames(["WebFetch", "WebSearch", "Frobnicate", "rm -rf /"]), {
    tools: [],
    unknown: ["WebFetch", "WebSearch", "Frobnicate", "rm -rf /"],
  });
});

Deno.test("an agent file: frontmatter fields as Claude Code means them, the body is the system prompt", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "reviewer.md");
  await Deno.writeTextFile(
    file,
    "---\nname: reviewer\ndescription: Reviews\n  code.\ntools: Read, Grep, WebFetch\ndisallowedTools: [Bash]\nmodel: sonnet\nmaxTurns: 5\npermissionMode: plan\ncolor: blue\n---\n\nYou review.\n",
  );
  const read = await readAgentFile(file, "project");
  assertEquals(read.agent, {
    name: "reviewer",
    description: "Reviews code.",
    prompt: "You review.",
    tools: ["read_file", "grep"],
    disallowedTools: ["bash"],
    maxTurns: 5,
    permissionMode: "plan",
    file,
    level: "project",
  });
  assertEquals(read.note, `${file}: tools navi does not have are left out: WebFetch`);
  await Deno.writeTextFile(file, "---\nname: x\ndescription: d\nmodel: my-local-model\ntools: []\n---\nbody");
  const own = (await readAgentFile(file, "user")).agent!;
  assertEquals([own.model, own.tools], ["my-local-model", []]);
  await Deno.writeTextFile(file, "---\nname: x\ndescription: d\ndisabled: true\n---\nbody");
  assertEquals(await readAgentFile(file, "user"), {});
});

Deno.test("folders in precedence order: the project's shadow the user's, files shadow built-ins, plugin folders load; bad files are one line each", async () => {
  await using root = await tempDir();
  await writeTree(root.path, {
    "repo/.navi/agents/reviewer.md": "---\nname: reviewer\ndescription: project reviewer\n---\nP",
    "repo/.claude/agents/explore.md": "---\nname: explore\ndescription: my explore\ntools: Read\n---\nE",
    "repo/.claude/agents/bad.md": "---\nname: bad\ndescription: [oops\n---\n",
    "repo/.claude/agents/notes/big.md": `---\nname: big\ndescription: big\n---\n${"x".repeat(300_000)}`,
    "home/agents/reviewer.md": "---\nname: reviewer\ndescription: user reviewer\n---\nU",
    "plugin/agents/helper.md": "---\ndescription: from a plugin\n---\nH",
    "outside.md": "---\nname: sneaky\ndescription: s\n---\nS",
  });
  await Deno.symlink(join(root.path, "outside.md"), join(root.path, "repo/.claude/agents/sneaky.md"));
  const repo = join(root.path, "repo");
  const folders = agentFolders([
    { kind: "navi", level: "project", path: join(repo, ".navi"), root: repo },
    { kind: "claude", level: "project", path: join(repo, ".claude"), root: repo },
    { kind: "agents", level: "project", path: join(repo, ".agents"), root: repo },
    { kind: "navi", level: "user", path: join(root.path, "home") },
  ]);
  assertEquals(folders.length, 3, ".agents/ holds skills, not agents");
  const catalog = await AgentCatalog.load([...folders, {
    path: join(root.path, "plugin/agents"),
    level: "plugin",
  }]);
  assertEquals(
    catalog.agents.map((a) => [a.name, a.level, a.description]),
    [
      ["explore", "project", "my explore"],
      ["general", "builtin", catalog.get("general")!.description],
      ["helper", "plugin", "from a plugin"],
      ["reviewer", "project", "project reviewer"],
    ],
  );
  const problems = catalog.problems.join("\n");
  assertEquals(catalog.problems.length, 4, problems);
  assertMatch(problems, /bad\.md:\d+: invalid YAML/);
  assertMatch(problems, /big\.md: \d+ bytes is over the 262144-byte limit; skipped/);
  assertMatch(problems, /sneaky\.md: points outside the repository/);
  assertMatch(
    problems,
    /home\/agents\/reviewer\.md: agent reviewer is shadowed by .*\.navi\/agents\/reviewer\.md$/m,
  );
  assertEquals(catalog.runnables().map((i) => i.name), ["explore", "reviewer"]);
  const untrusted = catalog.withoutProject();
  assertEquals(untrusted.agents.map((a) => [a.name, a.level]), [
    ["explore", "builtin"],
    ["general", "builtin"],
    ["helper", "plugin"],
    ["reviewer", "user"],
  ]);
  assertEquals(untrusted.get("reviewer")!.prompt, "U", "without the project's, the user's own agent is back");
});
