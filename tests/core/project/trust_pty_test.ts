// The trust prompt of the REPL under a real terminal (tmux): what would run, yes / no / show, stored answers,
// asked again when a file changes; custom commands and skills in /help and /skills.
import { join } from "node:path";
import { assert, assertMatch, llmConfig, MAIN, tempDir, until, writeConfig } from "../../helpers.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { cloneFixture, mcpJson, userHomeEnv } from "../../support/project_fixture.ts";
import { Pty } from "../../support/pty.ts";

Deno.test("the REPL asks once per folder (show, yes), remembers it, and asks again after .mcp.json changes", async () => {
  await using home = await tempDir();
  await using userHome = await tempDir();
  await using repo = await tempDir();
  await cloneFixture(repo.path);
  const server = startLlmServer((_i) => ({ text: "ok" }));
  await writeConfig(home.path, llmConfig(server.url));
  const start = () =>
    Pty.start([Deno.execPath(), "run", "-A", "--unstable-worker-options", MAIN], {
      env: { NAVI_HOME: home.path, NO_COLOR: "1", ...userHomeEnv(userHome.path) },
      cwd: repo.path,
    });
  try {
    {
      await using pty = await start();
      const screen = await pty.waitFor("[y]es / [n]o / [s]how the files:", 30_000);
      assertMatch(
        screen,
        new RegExp(`The project files of ${repo.path} would run code or widen permissions:`),
      );
      assertMatch(screen, /MCP server +docs: \S+ run -A \S+mcp_test_server\.ts +\.mcp\.json/);
      assertMatch(screen, /command +\/review: !`echo fixture-shell-output` +\.claude\/commands\/review\.md/);
      await pty.type("s");
      await pty.keys("Enter");
      await pty.waitFor(`--- ${join(repo.path, ".mcp.json")}`);
      await pty.waitFor('"mcpServers"');
      await pty.type("y");
      await pty.keys("Enter");
      await pty.waitFor("/help for commands", 30_000);
      await until(
        async () => {
          await pty.type("/mcp");
          await pty.keys("Enter");
          return await pty.waitFor(/docs +stdio +connected/, 2_000).then(() => true, () => false);
        },
        60_000,
        "the trusted project's MCP server connected",
      );
      await pty.type("/help");
      await pty.keys("Enter");
      await pty.waitFor(/\/review <path> +Review the changes in a path \(project, claude\)/);
      await pty.waitFor(/\/frontend:component +Create a React component named \$1\. \(project, claude\)/);
      await pty.type("/skills");
      await pty.keys("Enter");
      await pty.waitFor(
        /release-notes +project, claude +model, \/release-notes +\.claude\/skills\/release-notes\/SKILL\.md/,
      );
      await pty.type("/exit");
      await pty.keys("Enter");
      await pty.waitExit(20_000);
    }
    const stored = JSON.parse(await Deno.readTextFile(join(home.path, "trust.json")));
    assert(stored.folders[repo.path].trusted === true);
    {
      await using pty = await start();
      const screen = await pty.waitFor("/help for commands", 30_000);
      assert(!screen.includes("[y]es / [n]o"), "asked again although nothing changed");
      await pty.type("/exit");
      await pty.keys("Enter");
      await pty.waitExit(20_000);
    }
    await Deno.writeTextFile(join(repo.path, ".mcp.json"), mcpJson({ env: { CHANGED: "1" } }));
    {
      await using pty = await start();
      await pty.waitFor(`The project files of ${repo.path} changed since you last answered`, 30_000);
      await pty.type("n");
      await pty.keys("Enter");
      await pty.waitFor(/is not trusted; skipped MCP server docs, command \/review/, 30_000);
      await pty.waitFor("/help for commands");
      await pty.type("/exit");
      await pty.keys("Enter");
      await pty.waitExit(20_000);
    }
    const after = JSON.parse(await Deno.readTextFile(join(home.path, "trust.json")));
    assert(after.folders[repo.path].trusted === false, "the no is stored");
  } finally {
    await server.close();
  }
});
