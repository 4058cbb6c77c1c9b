import { join } from "node:path";
import {
  discoverCommands,
  discoverSkills,
  expandCommand,
  type ProjectFolder,
  skillsBlock,
  splitArguments,
} from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";
import { writeTree } from "../../support/project_fixture.ts";

const skill = (name: string, description: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody of ${name}.\n`;

Deno.test("skills: a project skill overrides the user's of the same name; invocation switches are honoured", async () => {
  await using repo = await tempDir();
  await using user = await tempDir();
  await writeTree(repo.path, {
    ".claude/skills/pdf/SKILL.md": skill("pdf", "Project pdf."),
    ".claude/skills/deploy/SKILL.md": skill("deploy", "Deploys.", "disable-model-invocation: true\n"),
    ".claude/skills/lint/SKILL.md": skill("lint", "Lints.", "user-invocable: false\n"),
    ".claude/skills/no-skill-md/README.md": "not a skill\n",
  });
  await writeTree(user.path, { "skills/pdf/SKILL.md": skill("pdf", "User pdf.") });
  const folders: ProjectFolder[] = [
    { kind: "claude", level: "project", path: join(repo.path, ".claude"), root: repo.path },
    { kind: "agents", level: "user", path: user.path },
  ];
  const { skills, problems } = await discoverSkills(folders);
  assertEquals(problems, []);
  assertEquals(skills.map((s) => [s.name, s.description, s.modelInvocable, s.userInvocable]), [
    ["deploy", "Deploys.", false, true],
    ["lint", "Lints.", true, false],
    ["pdf", "Project pdf.", true, true],
  ]);
  assertEquals(skills[2].overrides, join(user.path, "skills/pdf/SKILL.md"));
  const block = skillsBlock(skills, { capBytes: 10_000 });
  assert(!block.text.includes("deploy"), "a user-only skill is not listed for the model");
  assertEquals(block.listed, ["lint", "pdf"]);
});

Deno.test("skills block: sorted, the same bytes for the same skills, cut at the cap with a marker", async () => {
  await using repo = await tempDir();
  const files: Record<string, string> = {};
  for (const n of ["zeta", "alpha", "mid"]) {
    files[`.agents/skills/${n}/SKILL.md`] = skill(n, `${n} ${"d".repeat(200)}`);
  }
  await writeTree(repo.path, files);
  const folder: ProjectFolder = {
    kind: "agents",
    level: "project",
    path: join(repo.path, ".agents"),
    root: repo.path,
  };
  const { skills } = await discoverSkills([folder]);
  const whole = skillsBlock(skills, { capBytes: 100_000 });
  assertEquals(whole.text, skillsBlock([...skills].reverse(), { capBytes: 100_000 }).text);
  assertEquals(whole.listed, ["alpha", "mid", "zeta"]);
  const cut = skillsBlock(skills, { capBytes: 900 });
  assertEquals(cut.listed, ["alpha"]);
  assertEquals(cut.cut, 2);
  assertMatch(
    cut.text,
    /\[\.\.\. 2 more skills not listed: the list is capped at 2% of the context window\]\n<\/available-skills>$/,
  );
  assert(new TextEncoder().encode(cut.text).length <= 900 + 120);
});

Deno.test("commands: nested names, the first folder wins a collision (one line), a bad name is one line", async () => {
  await using repo = await tempDir();
  await writeTree(repo.path, {
    ".navi/commands/review.md": "navi review\n",
    ".claude/commands/review.md": "claude review\n",
    ".claude/commands/git/commit.md": "---\ndescription: Commit\nmodel: small\n---\nCommit $1\n",
    ".claude/commands/bad name.md": "x\n",
  });
  const folders: ProjectFolder[] = [
    { kind: "navi", level: "project", path: join(repo.path, ".navi"), root: repo.path },
    { kind: "claude", level: "project", path: join(repo.path, ".claude"), root: repo.path },
  ];
  const { commands, problems } = await discoverCommands(folders);
  assertEquals(commands.map((c) => [c.name, c.description]), [["review", "navi review"], [
    "git:commit",
    "Commit",
  ]]);
  assertEquals(problems, [
    `${repo.path}/.claude/commands/bad name.md: not a command name (letters, digits, _ . -); skipped`,
    `command /review of ${repo.path}/.claude/commands/review.md is shadowed by ${repo.path}/.navi/commands/review.md`,
  ]);
  assertEquals(commands[1].model, "small");
});

Deno.test("expansion: $ARGUMENTS, $1..$9 with quotes, !-lines run in place; text brought in is not expanded again", async () => {
  const folder: ProjectFolder = { kind: "claude", level: "project", path: "/nowhere", root: "/nowhere" };
  const cmd = {
    name: "t",
    file: "/nowhere/t.md",
    folder,
    body: "A=$ARGUMENTS B=$2 C=$9 D=!`echo $1`",
    model: undefined,
  };
  const ran: string[] = [];
  const run = (c: string) => (ran.push(c), Promise.resolve(`out(${c})\n`));
  const x = await expandCommand(cmd, `one "two words" !\`rm\``, { trusted: true, workspace: "/", run });
  assertEquals(x.text, 'A=one "two words" !`rm` B=two words C= D=out(echo one)');
  assertEquals(ran, ["echo one"]);
  assertEquals(splitArguments(`a 'b c' "d \\" e"`), ["a", "b c", 'd " e']);
  const untrusted = await expandCommand(cmd, "x", { trusted: false, workspace: "/", run });
  assertEquals(untrusted.text, "A=x B= C= D=[not run: !`echo x`]");
  assertEquals(untrusted.notes, ["/t: 1 shell line not run: this folder is not trusted (navi trust)"]);
  assertEquals(ran.length, 1);
});
