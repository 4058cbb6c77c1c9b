// The matcher rules of the issue: empty or `*` matches all, a plain list is exact names, anything else a
// regular expression tested anywhere in the value; an invalid expression is an error, never a silent no-match.
import { assertEquals } from "../../helpers.ts";
import { RE2JS } from "re2js";
import { compileMatcher, expressionsFor, isExpression } from "../../../core/hooks/matcher.ts";

function accepts(matcher: string | undefined, values: string[]): string[] {
  const m = compileMatcher(matcher, RE2JS);
  if ("error" in m) throw new Error(m.error);
  return values.filter((v) => m.test(v));
}

const NAMES = ["Bash", "Edit", "Write", "MultiEdit", "Read", "mcp__docs__echo", "mcp__git__commit", "bash"];

Deno.test("an empty matcher, a missing one and * match every value", () => {
  assertEquals(accepts("", NAMES), NAMES);
  assertEquals(accepts(undefined, NAMES), NAMES);
  assertEquals(accepts("*", NAMES), NAMES);
  assertEquals(accepts(" * ", NAMES), NAMES);
});

Deno.test("letters, digits, _, -, comma, | and spaces are a list of exact names (case matters)", () => {
  assertEquals(accepts("Bash", NAMES), ["Bash"]);
  assertEquals(accepts("Edit|Write", NAMES), ["Edit", "Write"]);
  assertEquals(accepts("Edit, Write", NAMES), ["Edit", "Write"]);
  assertEquals(accepts("Edit | Write | mcp__docs__echo", NAMES), ["Edit", "Write", "mcp__docs__echo"]);
  assertEquals(accepts("Edi", NAMES), [], "an exact name is not a prefix");
  assertEquals(accepts("BASH", NAMES), []);
});

Deno.test("anything else is a regular expression, found anywhere in the value", () => {
  assertEquals(accepts("mcp__docs__.*", NAMES), ["mcp__docs__echo"]);
  assertEquals(accepts("mcp__.*", NAMES), ["mcp__docs__echo", "mcp__git__commit"]);
  assertEquals(accepts("^(Edit|MultiEdit)$", NAMES), ["Edit", "MultiEdit"]);
  assertEquals(accepts("Edit.*", NAMES), ["Edit", "MultiEdit"], "unanchored, as Claude Code tests it");
  assertEquals(accepts("[Bb]ash", NAMES), ["Bash", "bash"]);
});

Deno.test("a matcher that is not a valid expression is an error naming it, not a matcher that never matches", () => {
  for (const bad of ["Edit(", "[Bash", "mcp__(?=docs)"]) {
    const m = compileMatcher(bad, RE2JS);
    assertEquals("error" in m, true, bad);
    if ("error" in m) assertEquals(m.error.startsWith(`matcher ${JSON.stringify(bad)} is not a valid`), true);
  }
});

Deno.test("an event without a value (no tool) matches only a matcher that matches all", () => {
  const all = compileMatcher("");
  const some = compileMatcher("Bash");
  assertEquals("test" in all && all.test(undefined), true);
  assertEquals("test" in some && some.test(undefined), false);
});

Deno.test("the expression engine is loaded only for expressions; an expression compiled without it is an error", async () => {
  assertEquals(["", "*", "Bash", "Edit|Write", "mcp__docs__echo, Read"].map(isExpression), [
    false,
    false,
    false,
    false,
    false,
  ]);
  assertEquals(["Bash.*", "mcp__.*__echo", "^Read$"].map(isExpression), [true, true, true]);
  assertEquals(await expressionsFor(["Bash", "Edit|Write", undefined, 3]), undefined);
  assertEquals(await expressionsFor(["Bash", "mcp__.*"]), RE2JS);
  const m = compileMatcher("mcp__.*");
  assertEquals("error" in m, true, "never a silent no-match");
});
