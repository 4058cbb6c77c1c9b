// Reading hooks from settings files: Claude Code's shape as written, navi's additions, and every bad entry
// as one line naming file:line while the good entries of the same file still load.
import { assertEquals } from "../../helpers.ts";
import { type HookFile, loadHookFiles } from "../../../core/hooks/load.ts";

const file = (text: string, level: "user" | "project" = "project"): HookFile => ({
  path: "/repo/.claude/settings.json",
  text,
  source: { file: "/repo/.claude/settings.json", level, vocabulary: "claude" },
});

const DOCS_EXAMPLE = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/check.sh",
            "timeout": 30
          }
        ]
      }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
  }
}`;

Deno.test("the documentation's example loads as written: event, matcher, command, timeout in seconds, line", async () => {
  const { hooks, problems, skipped } = await loadHookFiles([file(DOCS_EXAMPLE)]);
  assertEquals(problems, []);
  assertEquals(skipped, []);
  assertEquals(
    hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutMs, h.line, h.confined, h.network]),
    [
      ["PreToolUse", "Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', 30_000, 5, true, false],
      ["Stop", "", "notify-send done", 60_000, 15, true, false],
    ],
  );
  assertEquals(hooks[0].matches("Bash"), true);
  assertEquals(hooks[0].matches("Edit"), false);
});

Deno.test("an invalid matcher is one line naming file:line; the file's other entries still load", async () => {
  const text = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Edit(", "hooks": [{ "type": "command", "command": "a" }] },
      { "matcher": "Write", "hooks": [{ "type": "command", "command": "b" }] }
    ]
  }
}`;
  const { hooks, problems } = await loadHookFiles([file(text)]);
  assertEquals(hooks.map((h) => h.command), ["b"]);
  assertEquals(problems.length, 1);
  assertEquals(
    problems[0].startsWith(
      '/repo/.claude/settings.json:4: hooks.PreToolUse[0]: matcher "Edit(" is not a valid regular expression',
    ),
    true,
    problems[0],
  );
  assertEquals(problems[0].endsWith("its hooks are not loaded"), true);
});

Deno.test("bad JSON is one line with the line of the error; nothing of that file loads", async () => {
  const { hooks, problems } = await loadHookFiles([file('{\n  "hooks": {\n    "Stop": [,]\n  }\n}')]);
  assertEquals(hooks, []);
  assertEquals(problems.length, 1);
  assertEquals(problems, [
    "/repo/.claude/settings.json:3: not valid JSON (expected a value); its hooks are not loaded",
  ]);
  const cut = (await loadHookFiles([file('{\n  "hooks": {\n    "Stop": []\n')])).problems;
  assertEquals(cut, [
    '/repo/.claude/settings.json:4: not valid JSON (expected "," or "}"); its hooks are not loaded',
  ]);
});

Deno.test("wrong shapes are named by their path in the file", async () => {
  const text = JSON.stringify({
    hooks: {
      PreToolUse: { matcher: "Bash" },
      PostToolUse: [
        { matcher: 7, hooks: [] },
        { hooks: [{ type: "command" }, { type: "command", command: "x", timeout: -1 }, "y"] },
        { hooks: [{ type: "command", command: "ok", sandbox: "yes" }] },
      ],
    },
  });
  const { problems } = await loadHookFiles([file(text)]);
  const f = "/repo/.claude/settings.json:1";
  assertEquals(problems, [
    `${f}: hooks.PreToolUse must be a list of { "matcher", "hooks" } entries`,
    `${f}: hooks.PostToolUse[0].matcher must be a string`,
    `${f}: hooks.PostToolUse[1].hooks[0].command must be a non-empty string`,
    `${f}: hooks.PostToolUse[1].hooks[1].timeout must be a positive number of seconds`,
    `${f}: hooks.PostToolUse[1].hooks[2] must be an object`,
    `${f}: hooks.PostToolUse[2].hooks[0].sandbox must be true or false`,
  ]);
});

Deno.test("events and hook types navi does not run are listed as skipped, not errors", async () => {
  const text = JSON.stringify({
    hooks: {
      PermissionRequest: [{ hooks: [{ type: "command", command: "x" }] }],
      Stop: [{ hooks: [{ type: "prompt", prompt: "Is the work done?" }] }],
    },
  });
  const { hooks, problems, skipped } = await loadHookFiles([file(text)]);
  assertEquals([hooks, problems], [[], []]);
  assertEquals(skipped.map((s) => [s.event, s.why]), [
    ["PermissionRequest", "navi has no such event"],
    ["Stop", 'hook type "prompt" is not supported (navi runs "command")'],
  ]);
});

Deno.test("confinement: project hooks always run confined; user hooks only when they ask; network on request", async () => {
  const text = JSON.stringify({
    hooks: {
      Stop: [{
        hooks: [
          { type: "command", command: "plain" },
          { type: "command", command: "boxed", sandbox: true, network: true },
          { type: "command", command: "escape", sandbox: false },
        ],
      }],
    },
  });
  const confined = async (level: "user" | "project") =>
    (await loadHookFiles([file(text, level)])).hooks.map((h) => [h.command, h.confined, h.network]);
  assertEquals(await confined("user"), [["plain", false, false], ["boxed", true, true], [
    "escape",
    false,
    false,
  ]]);
  assertEquals(await confined("project"), [["plain", true, false], ["boxed", true, true], [
    "escape",
    true,
    false,
  ]]);
});

Deno.test("a plugin bundle's hooks.json: the bare object or { hooks }, ${CLAUDE_PLUGIN_ROOT} expanded", async () => {
  const source = {
    file: "/p/hooks/hooks.json",
    level: "user" as const,
    vocabulary: "claude" as const,
    pluginRoot: "/p",
  };
  const bare = { path: "/p/hooks/hooks.json", source, bare: true };
  const cmd = { type: "command", command: "${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh" };
  for (const text of [{ PostToolUse: [{ hooks: [cmd] }] }, { hooks: { PostToolUse: [{ hooks: [cmd] }] } }]) {
    const { hooks, problems } = await loadHookFiles([{ ...bare, text: JSON.stringify(text) }]);
    assertEquals(problems, []);
    assertEquals(hooks.map((h) => h.command), ["/p/scripts/fmt.sh"]);
  }
});
