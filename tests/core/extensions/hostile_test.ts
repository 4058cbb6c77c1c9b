// Black-box: hostile extension files in a cloned repository. Each is one line naming it; the session, the
// other skills and commands are unaffected.
import { join } from "node:path";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { cloneFixture, userHomeEnv, writeTree } from "../../support/project_fixture.ts";

/**
 * Run `navi -p <prompt>` in the fixture after `prepare`; returns stderr's lines (without the fixture's own
 * line about its untrusted /review command) and the first request's messages.
 */
async function hostile(prepare: (repo: string, outside: string) => Promise<void>, prompt = "hi") {
  await using home = await tempDir();
  await using userHome = await tempDir();
  await using repo = await tempDir();
  await using outside = await tempDir();
  await cloneFixture(repo.path, { mcp: false });
  await prepare(repo.path, outside.path);
  const server = startLlmServer([{ text: "still fine" }]);
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi(["-p", prompt], {
      home: home.path,
      cwd: repo.path,
      env: userHomeEnv(userHome.path),
    });
    const body = server.requests[0]?.body as { messages: { content: unknown }[] } | undefined;
    return {
      ...r,
      repo: repo.path,
      messages: body?.messages ?? [],
      lines: r.stderr.split("\n").filter((l) => l && !/is not trusted; skipped command \/review /.test(l)),
    };
  } finally {
    await server.close();
  }
}

function intact(r: { code: number; stdout: string; messages: { content: unknown }[] }) {
  assertEquals(r.code, 0);
  assertEquals(r.stdout, "still fine\n");
  assertMatch(String(r.messages[1]?.content), /- release-notes: Drafts release notes/);
}

const BIG = "---\nname: huge\ndescription: big\n---\n" + "x".repeat(10 * 1024 * 1024);

Deno.test("a SKILL.md of 10 MB: one line naming it, skipped; the other skills stay", async () => {
  const r = await hostile(async (repo) => {
    await Deno.mkdir(join(repo, ".claude/skills/huge"), { recursive: true });
    await Deno.writeTextFile(join(repo, ".claude/skills/huge/SKILL.md"), BIG);
  });
  assertEquals(r.lines, [
    `navi: ${r.repo}/.claude/skills/huge/SKILL.md: ${BIG.length} bytes is over the 262144-byte limit; skipped`,
  ]);
  intact(r);
});

Deno.test("a frontmatter that is not YAML: one line with file:line, skipped", async () => {
  const r = await hostile((repo) =>
    writeTree(repo, {
      ".claude/skills/broken/SKILL.md": "---\nname: broken\ndescription: [unclosed\n  : : :\n---\nbody\n",
      ".claude/commands/bad.md": "---\n\tdescription: tabs are not YAML\n---\nbody\n",
    })
  );
  assertEquals(r.lines.length, 2, r.stderr);
  assertMatch(
    r.lines[0],
    new RegExp(`^navi: ${r.repo}/\\.claude/commands/bad\\.md:\\d+: invalid YAML: .+; skipped$`),
  );
  assertMatch(
    r.lines[1],
    new RegExp(`^navi: ${r.repo}/\\.claude/skills/broken/SKILL\\.md:\\d+: invalid YAML: .+; skipped$`),
  );
  intact(r);
});

Deno.test("a command file that includes itself: one note; its text is attached once, not expanded again", async () => {
  const r = await hostile(
    (repo) => writeTree(repo, { ".claude/commands/loop.md": "Do it again: @.claude/commands/loop.md\n" }),
    "/loop",
  );
  assertEquals(r.lines, [
    "navi: /loop mentions its own file; it is attached once as text, not expanded again",
    "attached @.claude/commands/loop.md (1 lines)",
  ]);
  const prompt = String(r.messages.at(-1)?.content);
  assertEquals(prompt.split("Do it again").length - 1, 2, "the template, and the file attached once");
  intact(r);
});

Deno.test("a symlinked skill folder pointing outside the repository: one line, skipped", async () => {
  const r = await hostile(async (repo, outside) => {
    await writeTree(outside, {
      "stolen/SKILL.md": "---\nname: stolen\ndescription: reads your home\n---\nbody\n",
    });
    await Deno.symlink(join(outside, "stolen"), join(repo, ".claude/skills/stolen"));
  });
  assertEquals(r.lines.length, 1, r.stderr);
  assertMatch(
    r.lines[0],
    new RegExp(
      `^navi: ${r.repo}/\\.claude/skills/stolen: points outside the repository \\(to .+/stolen\\); skipped$`,
    ),
  );
  assert(!String(r.messages[1]?.content).includes("stolen"));
  intact(r);
});

Deno.test("a skill name with ../: one line, skipped", async () => {
  const r = await hostile((repo) =>
    writeTree(repo, {
      ".agents/skills/evil/SKILL.md": "---\nname: ../../etc/passwd\ndescription: escape\n---\nbody\n",
    })
  );
  assertEquals(r.lines, [
    `navi: ${r.repo}/.agents/skills/evil/SKILL.md:2: name: "../../etc/passwd" is not a skill name (a-z, 0-9 and -, at most 64); skipped`,
  ]);
  intact(r);
});
