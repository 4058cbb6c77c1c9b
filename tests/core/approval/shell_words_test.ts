import { shellCommands } from "../../../core/approval/shell_words.ts";
import { assert, assertEquals } from "../../helpers.ts";

Deno.test("quoting, escapes and whitespace are removed; lists, pipelines and redirections are split", () => {
  assertEquals(shellCommands(`r''m  "-rf" \\x  2>&1 > out.txt | tee  'a b' && echo "c;d"`), [
    ["rm", "-rf", "x"],
    ["tee", "a b"],
    ["echo", "c;d"],
  ]);
});

Deno.test("commands inside substitutions run, even in double quotes; not in single quotes", () => {
  const found = shellCommands(`echo "$(id -u)" \`whoami\` <(date) 'not $(this)'`).map((w) => w.join(" "));
  assertEquals(found, [
    "echo __navi_subst__ __navi_subst__ __navi_subst__ not $(this)",
    "id -u",
    "whoami",
    "date",
  ]);
});

Deno.test("wrappers, shells, eval and find -exec are looked through", () => {
  const found = (c: string) => shellCommands(c).map((w) => w.join(" "));
  assert(found("sudo -u root env A=1 nice -n 5 rm -rf x").includes("rm -rf x"));
  assert(found("bash -lc 'cd /; rm -rf x'").includes("rm -rf x"));
  assert(found("eval 'rm' '-rf' x").includes("rm -rf x"));
  assert(found("find . -exec rm -rf {} +").includes("rm -rf {}"));
  assertEquals(found("A=1 B=2 make"), ["make"]);
});

Deno.test("hostile sizes are cut off, not followed without end", () => {
  assert(shellCommands("sudo ".repeat(5000) + "rm -rf x").length <= 500);
  const nested = (n: number) => shellCommands("echo " + "$(".repeat(n) + "rm -rf x" + ")".repeat(n));
  assert(nested(5).some((w) => w[0] === "rm"), "nested substitutions are followed");
  assert(!nested(100).some((w) => w[0] === "rm"), "up to a depth of 8");
  assertEquals(shellCommands("a ".repeat(20000)).length, 1);
});
