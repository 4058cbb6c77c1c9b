// A cloned repository laid out the way published examples are: a `.claude/commands/` command with $ARGUMENTS,
// an Agent Skill folder with scripts/ and references/, a `.mcp.json` whose server is navi's MCP test server.
import { dirname, join } from "node:path";
import { ROOT } from "../helpers.ts";

/** A marker in the skill's body: present in a request only once the skill was activated. */
export const SKILL_BODY_MARK = "RELEASE-NOTES-BODY-7f3a";

/** Write `files` (path relative to `root` -> text) under `root`. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

/** The `.mcp.json` of the fixture: server `docs`, navi's stdio MCP test server. */
export function mcpJson(extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      mcpServers: {
        docs: {
          command: Deno.execPath(),
          args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")],
          ...extra,
        },
      },
    },
    null,
    2,
  );
}

/** Lay out the fixture repository in `repo` (a git repository: `.git` marks its root). */
export async function cloneFixture(repo: string, opts: { mcp?: boolean } = {}): Promise<void> {
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await writeTree(repo, {
    ".claude/commands/review.md": [
      "---",
      "description: Review the changes in a path",
      "argument-hint: <path>",
      "allowed-tools: Bash(git diff:*)",
      "---",
      "",
      "Review the code in $ARGUMENTS for bugs and style. First file: $1.",
      "Git says: !`echo fixture-shell-output`",
      "",
    ].join("\n"),
    ".claude/commands/frontend/component.md": "Create a React component named $1.\n",
    ".claude/skills/release-notes/SKILL.md": [
      "---",
      "name: release-notes",
      "description: Drafts release notes from the git log. Use when asked for release notes or a changelog.",
      "license: Apache-2.0",
      "metadata:",
      "  author: example-org",
      '  version: "1.0"',
      "---",
      "",
      "# Release notes",
      "",
      `Run scripts/collect.sh, then write the notes as references/style.md says. ${SKILL_BODY_MARK}`,
      "",
    ].join("\n"),
    ".claude/skills/release-notes/scripts/collect.sh": "#!/bin/sh\ngit log --oneline -20\n",
    ".claude/skills/release-notes/references/style.md": "# Style\n\nOne line per change.\n",
    "src/app.ts": "export const answer = 42;\n",
  });
  if (opts.mcp !== false) await Deno.writeTextFile(join(repo, ".mcp.json"), mcpJson());
}

/**
 * The environment of a navi run whose user home (`~/.claude`, `~/.agents`) is `userHome`: Deno's cache stays
 * where it is (it is found through HOME otherwise, and an empty one would download every package again).
 */
export function userHomeEnv(userHome: string): Record<string, string> {
  const home = Deno.env.get("HOME") ?? "/root";
  const denoDir = Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "deno");
  return { HOME: userHome, DENO_DIR: denoDir };
}
