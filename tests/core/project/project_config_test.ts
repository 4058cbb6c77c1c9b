import { join } from "node:path";
import { mergeConfig, Project, readProjectConfig, trustHash, TrustStore } from "../../../core/mod.ts";
import { assert, assertEquals, tempDir } from "../../helpers.ts";
import { writeTree } from "../../support/project_fixture.ts";

Deno.test("project settings merge over the user's; what a repository may not set is refused with one line each", async () => {
  await using repo = await tempDir();
  await writeTree(repo.path, {
    ".navi/config.json": JSON.stringify({
      model: "team-model",
      approval: { mode: "auto", allow: ["bash(npm test*)"], deny: ["bash(rm*)"] },
      sandbox: { writable: ["/tmp/mine", "/etc"], network: true, mode: "off" },
      features: { grep: false, bash: true },
      plugins: { fmt: { style: "tabs", permissions: { run: true } } },
      tools: { defer: "never" },
      mcp_servers: { docs: { command: "docs-server" } },
    }),
  });
  const read = readProjectConfig({ configFiles: [join(repo.path, ".navi/config.json")], mcpFiles: [] });
  const file = join(repo.path, ".navi/config.json");
  assertEquals(read.problems, [
    `${file}: plugins.fmt.permissions refused: only your own config.json grants plugins permissions`,
    `${file}: sandbox.mode refused: a repository may only narrow the sandbox`,
    `${file}: sandbox.network refused: a repository may only narrow the sandbox`,
  ]);
  const user = {
    config: {
      model: "mine",
      approval: { allow: ["read_file"] },
      sandbox: { writable: ["/tmp/mine"] },
      features: { bash: false },
    },
    file: "/home/u/.navi/config.json",
  };
  const untrusted = mergeConfig(user, read.settings, { trusted: false, workspace: repo.path });
  assertEquals(untrusted.config, {
    model: "team-model",
    approval: { allow: ["read_file"], deny: ["bash(rm*)"] },
    sandbox: { writable: ["/tmp/mine"] },
    features: { bash: false, grep: false },
    plugins: { fmt: { style: "tabs" } },
    tools: { defer: "never" },
  });
  assertEquals(untrusted.problems, [
    `${file}: approval.mode auto refused: a repository may only make approval stricter`,
    `${file}: sandbox.writable /etc refused: a repository may only narrow the writable list`,
    `${file}: features.bash refused: your config.json switches it off`,
  ]);
  assertEquals(untrusted.provenance.get("model"), file);
  assertEquals(untrusted.provenance.get("approval.allow"), user.file);
  const trusted = mergeConfig(user, read.settings, { trusted: true, workspace: repo.path });
  assertEquals(trusted.config.approval?.allow, ["read_file", "bash(npm test*)"]);
  assertEquals(trusted.config.mcp_servers, { docs: { command: "docs-server" } });
  assertEquals(trusted.provenance.get("mcp_servers.docs.command"), file);
});

Deno.test(".mcp.json: Claude Code's mcpServers become navi's servers; ${VAR} values are navi's $VAR; bad entries are one line", async () => {
  await using repo = await tempDir();
  await writeTree(repo.path, {
    ".mcp.json": JSON.stringify({
      mcpServers: {
        gh: { type: "stdio", command: "npx", args: ["-y", "gh-mcp"], env: { TOKEN: "${GH_TOKEN}" } },
        web: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "${AUTH}" } },
        old: { type: "sse", url: "https://mcp.example.com/sse" },
        "bad__name": { command: "x" },
        both: { command: "x", url: "https://x.example.com" },
      },
    }),
  });
  const file = join(repo.path, ".mcp.json");
  const read = readProjectConfig({ configFiles: [], mcpFiles: [file] });
  assertEquals(read.settings[0].config.mcp_servers, {
    gh: { command: "npx", args: ["-y", "gh-mcp"], env: { TOKEN: "$GH_TOKEN" } },
    web: { url: "https://mcp.example.com/mcp", headers: { Authorization: "$AUTH" } },
  });
  assertEquals(read.problems.length, 3);
  assert(read.problems[0].startsWith(`${file}: mcpServers.old: type "sse" is not supported`));
  assert(read.problems[1].startsWith(`${file}: mcpServers.bad__name: invalid server name`));
  assert(read.problems[2].startsWith(`${file}: mcpServers.both: needs exactly one of command`));
});

Deno.test("a project file that is not valid is one line and is ignored whole", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(join(dir, ".navi"));
    Deno.writeTextFileSync(join(dir, ".navi/config.json"), '{"model": 3');
    const read = readProjectConfig({ configFiles: [join(dir, ".navi/config.json")], mcpFiles: [] });
    assertEquals(read.settings, []);
    assertEquals(read.problems, [
      `${join(dir, ".navi/config.json")}: invalid JSON at line 1 column 12; the file is ignored`,
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("trust: the state follows the stored answer and the hash of what would run; a changed file is asked again", async () => {
  await using home = await tempDir();
  await using repo = await tempDir();
  await writeTree(repo.path, {
    ".git/HEAD": "",
    ".mcp.json": JSON.stringify({ mcpServers: { a: { command: "a" } } }),
  });
  await Deno.mkdir(join(repo.path, "sub"));
  const read = () =>
    Project.read({ workspace: join(repo.path, "sub"), home: home.path, user: {}, userFile: "/c" });
  const project = read();
  assertEquals(project.layout.root, repo.path);
  assertEquals(project.runnables().map((i) => i.what), ["a: a"]);
  const store = new TrustStore(home.path);
  assertEquals(await project.trustState(store), "new");
  const hash = (await project.hash())!;
  store.set(repo.path, { trusted: true, hash });
  assertEquals(await read().trustState(store), "trusted");
  assertEquals((await Deno.stat(store.file)).mode! & 0o777, 0o600);
  await Deno.writeTextFile(
    join(repo.path, ".mcp.json"),
    JSON.stringify({ mcpServers: { a: { command: "a" } } }, null, 1),
  );
  assertEquals(await read().trustState(store), "changed", "a change of the file's bytes asks again");
  store.set(repo.path, { trusted: false, hash: (await read().hash())! });
  assertEquals(await read().trustState(store), "refused");
  assert(hash !== await trustHash([{ kind: "x", what: "y", file: join(repo.path, ".mcp.json") }]));
  await Deno.writeTextFile(store.file, "{ not json");
  assertEquals(await read().trustState(store), "new", "an unreadable trust.json trusts nothing");
});

Deno.test("compat switches: claude off drops .claude/ and .mcp.json; a project's .navi/config.json can switch them", async () => {
  await using home = await tempDir();
  await using repo = await tempDir();
  await writeTree(repo.path, {
    ".git/HEAD": "",
    ".claude/commands/a.md": "a",
    ".agents/skills/x/SKILL.md": "x",
    ".mcp.json": "{}",
    ".navi/config.json": JSON.stringify({ compat: { agents: false } }),
  });
  const kinds = (user: Record<string, unknown>) =>
    Project.read({ workspace: repo.path, home: home.path, user, userFile: "/c" }).layout;
  const project = (l: ReturnType<typeof kinds>) =>
    l.folders.filter((f) => f.level === "project").map((f) => f.kind);
  assertEquals(project(kinds({})), ["navi", "claude"]);
  assertEquals(kinds({}).folders.at(-1), { kind: "navi", level: "user", path: home.path });
  assertEquals(kinds({}).mcpFiles, [join(repo.path, ".mcp.json")]);
  const off = kinds({ compat: { claude: false } });
  assertEquals([project(off), off.mcpFiles], [["navi"], []]);
});
