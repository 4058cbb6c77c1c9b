import { matchesCommand, parseCommandPattern } from "../../../core/mod.ts";
import { assert, assertEquals } from "../../helpers.ts";

const matches = (pattern: string, words: string[]) => matchesCommand(parseCommandPattern(pattern)!, words);

Deno.test("options are a set: combined, reordered, long and short spellings match alike", () => {
  for (
    const words of [["rm", "-rf", "x"], ["rm", "-f", "-r"], ["rm", "--force", "-R", "x"], [
      "/usr/bin/rm",
      "-rfv",
    ]]
  ) {
    assert(matches("rm -rf*", words), words.join(" "));
  }
  assert(!matches("rm -rf*", ["rm", "-r", "x"]), "a missing option does not match");
  assert(!matches("rm -rf*", ["rmdir", "-rf"]), "another program does not match");
  assert(matches("git push --force*", ["git", "push", "origin", "-f"]));
  assert(matches("git push --force*", ["git", "push", "--force", "origin", "main"]));
  assert(!matches("git push --force*", ["git", "push", "origin"]));
});

Deno.test("words keep their order; without a trailing * the command must match exactly", () => {
  assert(matches("npm publish*", ["npm", "publish", "--tag", "next"]));
  assert(!matches("npm publish*", ["npm", "install"]));
  assert(matches("rm -rf /*", ["rm", "-rf", "/home/x"]));
  assert(!matches("rm -rf /*", ["rm", "-rf", "./build"]));
  assert(matches("ls", ["ls"]));
  assert(!matches("ls", ["ls", "-l"]));
  assert(!matches("ls", ["ls", "dir"]));
});

Deno.test("a pattern without a program is not a command pattern", () => {
  assertEquals(parseCommandPattern("-rf*"), undefined);
  assertEquals(parseCommandPattern("   "), undefined);
});
