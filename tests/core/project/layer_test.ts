// The project layer in the one start-up sequence: contributors' items in the trust list and hash; a trusted
// project's MCP servers survive `/mcp reload` (config.json read again, the project merged over it again).
import { join } from "node:path";
import { bootApp, type Env, TrustStore } from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { assert, assertEquals, llmConfig, tempDir, writeConfig } from "../../helpers.ts";
import { cloneFixture } from "../../support/project_fixture.ts";

const env = (userHome: string): Env => ({
  get: (k) => (k === "HOME" ? userHome : Deno.env.get(k)),
  toObject: () => ({ ...Deno.env.toObject(), HOME: userHome }),
});

Deno.test("a contributor's items join the trust list and hash; untrusted, they are named in the one line", async () => {
  await using home = await tempDir();
  await using userHome = await tempDir();
  await using repo = await tempDir();
  await cloneFixture(repo.path, { mcp: false });
  const hooks = join(repo.path, ".claude/settings.json");
  await Deno.writeTextFile(hooks, '{"hooks": {}}');
  const lines: string[] = [];
  const app = await bootApp({
    home: home.path,
    workspace: repo.path,
    env: env(userHome.path),
    builtins: builtinTools(),
    config: {},
    plugins: "skip",
    report: (l) => lines.push(l.text),
    contributors: [() => [{ kind: "hook", what: "PreToolUse: ./check.sh", file: hooks, name: "PreToolUse" }]],
  });
  try {
    assertEquals(app.project!.runnables().map((i) => i.kind), ["command", "hook"]);
    assertEquals(lines, [
      `${repo.path} is not trusted; skipped command /review, hook PreToolUse (navi trust, run there, trusts it)`,
    ]);
    const before = await app.project!.hash();
    await Deno.writeTextFile(hooks, '{"hooks": {"x": 1}}');
    assert(before !== await app.project!.hash(), "the contributor's file is part of the hash");
  } finally {
    await app.close();
  }
});

Deno.test(
  "a trusted project's MCP server is still there after a reload of the config",
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    await using home = await tempDir();
    await using userHome = await tempDir();
    await using repo = await tempDir();
    await cloneFixture(repo.path);
    await writeConfig(home.path, llmConfig("http://127.0.0.1:9/v1"));
    const boot = () =>
      bootApp({
        home: home.path,
        workspace: repo.path,
        env: env(userHome.path),
        builtins: builtinTools(),
        plugins: "skip",
      });
    const first = await boot();
    new TrustStore(home.path).set(repo.path, { trusted: true, hash: (await first.project!.hash())! });
    await first.close();
    const app = await boot();
    try {
      assert(app.project!.trusted);
      await app.mcp.start();
      assertEquals(app.mcp.states().map((s) => [s.name, s.status]), [["docs", "connected"]]);
      await app.mcp.reload();
      assertEquals(app.mcp.states().map((s) => [s.name, s.status]), [["docs", "connected"]]);
    } finally {
      await app.close();
    }
  },
);
