// The project layer at start-up: reading it in a workspace without project files (what every start pays when
// the feature is unused) against one with 20 commands and 20 skills, and the skills block.
import { join } from "node:path";
import { readProjectLayer, skillsBlock } from "../core/mod.ts";

const env = (home: string) => ({
  get: (k: string) => (k === "HOME" ? home : undefined),
  toObject: () => ({}),
});
const empty = await Deno.makeTempDir({ prefix: "navi-bench-project-" });
const full = await Deno.makeTempDir({ prefix: "navi-bench-project-" });
const userHome = await Deno.makeTempDir({ prefix: "navi-bench-user-" });
await Deno.mkdir(join(empty, ".git"));
await Deno.mkdir(join(full, ".git"));
for (let i = 0; i < 20; i++) {
  const n = String(i).padStart(2, "0");
  await Deno.mkdir(join(full, ".claude/commands"), { recursive: true });
  await Deno.writeTextFile(
    join(full, `.claude/commands/cmd${n}.md`),
    `---\ndescription: Command ${n}\nargument-hint: <path>\n---\nDo thing ${n} with $ARGUMENTS.\n`,
  );
  await Deno.mkdir(join(full, `.agents/skills/skill-${n}/references`), { recursive: true });
  await Deno.writeTextFile(
    join(full, `.agents/skills/skill-${n}/SKILL.md`),
    `---\nname: skill-${n}\ndescription: Skill ${n}: does a particular task when asked for it.\nlicense: MIT\n---\n` +
      "# Steps\n\n" + "A line of instructions.\n".repeat(60),
  );
}
const home = join(userHome, ".navi");

Deno.bench({
  name: "project layer: no project files (unused)",
  group: "start",
  baseline: true,
  fn: async () => void await readProjectLayer({ home, workspace: empty, env: env(userHome), user: {} }),
});
Deno.bench({
  name: "project layer: 20 commands and 20 skills",
  group: "start",
  fn: async () => void await readProjectLayer({ home, workspace: full, env: env(userHome), user: {} }),
});

const { extensions } = await readProjectLayer({ home, workspace: full, env: env(userHome), user: {} });
Deno.bench({
  name: "skills block of 20 skills",
  fn: () => void skillsBlock(extensions.skills, { capBytes: 128_000 * 0.02 * 4 }),
});

globalThis.addEventListener("unload", () => {
  for (const d of [empty, full, userHome]) Deno.removeSync(d, { recursive: true });
});
