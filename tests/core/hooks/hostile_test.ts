// Bad hook settings are normal input: each problem is one line naming file:line, the session goes on, and
// a config.json with a bad hook is still a valid config.
import { join } from "node:path";
import { assertEquals, llmConfig, runNavi, tempDir, writeConfig } from "../../helpers.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { userHomeEnv } from "../../support/project_fixture.ts";

Deno.test("bad JSON in ~/.claude/settings.json and an invalid matcher in config.json: one line each, the answer arrives", async () => {
  await using home = await tempDir();
  await using userHome = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer([{ text: "still here" }]);
  try {
    await writeConfig(home.path, {
      ...llmConfig(server.url),
      hooks: { PreToolUse: [{ matcher: "Bash(", hooks: [{ type: "command", command: "true" }] }] },
    });
    const claude = join(userHome.path, ".claude", "settings.json");
    await Deno.mkdir(join(userHome.path, ".claude"));
    await Deno.writeTextFile(claude, '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ }\n    ]\n  }\n}\n');
    const r = await runNavi(["-p", "hi"], { home: home.path, cwd: ws.path, env: userHomeEnv(userHome.path) });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "still here\n");
    const config = join(home.path, "config.json");
    const configText = await Deno.readTextFile(config);
    const matcherLine = configText.split("\n").findIndex((l) => l.includes('"matcher"')) + 1;
    const lines = r.stderr.trim().split("\n");
    assertEquals(lines.length, 2, r.stderr);
    assertEquals(
      lines[0].startsWith(
        `navi: ${config}:${matcherLine}: hooks.PreToolUse[0]: matcher "Bash(" is not a valid`,
      ),
      true,
      lines[0],
    );
    assertEquals(lines[1], `navi: ${claude}:4: not valid JSON (expected a value); its hooks are not loaded`);
  } finally {
    await server.close();
  }
});
