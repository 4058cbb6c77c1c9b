// Which settings files hooks are read from: navi's config.json files, and Claude Code's settings only with
// compat.claude; files that never mention hooks are not parsed.
import { join } from "node:path";
import { assertEquals, tempDir } from "../../helpers.ts";
import { hookFiles, hookTrustItems, loadHooks } from "../../../core/hooks/mod.ts";
import { findProject } from "../../../core/project/mod.ts";
import { writeTree } from "../../support/project_fixture.ts";

const hooks = (command: string) =>
  JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } });

Deno.test("user and project files in order; Claude Code's only with compat.claude; no 'hooks', no parse", async () => {
  await using home = await tempDir();
  await using user = await tempDir();
  await using repo = await tempDir();
  await writeTree(home.path, { "config.json": hooks("navi-user") });
  await writeTree(user.path, { ".claude/settings.json": hooks("claude-user") });
  await writeTree(repo.path, {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".navi/config.json": hooks("navi-project"),
    ".claude/settings.json": hooks("claude-project"),
    ".claude/settings.local.json": hooks("claude-local"),
    "sub/.claude/settings.json": JSON.stringify({ permissions: { allow: [] } }),
  });
  const places = (claude: boolean) => ({
    userConfig: join(home.path, "config.json"),
    userHome: user.path,
    layout: findProject(join(repo.path), { home: home.path, userHome: user.path, compat: { claude } }),
  });
  const read = async (claude: boolean) =>
    (await loadHooks(hookFiles(places(claude)))).hooks.map((
      h,
    ) => [h.command, h.source.level, h.source.vocabulary]);
  assertEquals(await read(true), [
    ["navi-user", "user", "navi"],
    ["claude-user", "user", "claude"],
    ["navi-project", "project", "navi"],
    ["claude-project", "project", "claude"],
    ["claude-local", "project", "claude"],
  ]);
  assertEquals(await read(false), [["navi-user", "user", "navi"], ["navi-project", "project", "navi"]]);
  const items = hookTrustItems(await loadHooks(hookFiles(places(true))));
  assertEquals(items.map((i) => [i.kind, i.what]), [
    ["hook", "Stop: navi-project"],
    ["hook", "Stop: claude-project"],
    ["hook", "Stop: claude-local"],
  ]);
});
