// A hook's matcher: empty or `*` matches everything; only letters, digits, `_`, `-`, `,`, `|` and spaces is a
// list of exact names; anything else is a regular expression (RE2 through re2js: linear time, no pattern can
// hang navi), tested anywhere in the value as Claude Code does.
import { RE2JS } from "re2js";

/** Characters of a matcher that is a list of exact names. */
const NAME_LIST = /^[A-Za-z0-9_,| -]*$/;

/** A compiled matcher: a test, or the reason the expression is invalid. */
export type CompiledMatcher = { test(value: string | undefined): boolean } | { error: string };

/** Compile `matcher` (see the module header); an invalid expression gives `{ error }`, never a silent no-match. */
export function compileMatcher(matcher: string | undefined): CompiledMatcher {
  const text = (matcher ?? "").trim();
  if (text === "" || text === "*") return { test: () => true };
  if (NAME_LIST.test(text)) {
    const names = new Set(text.split(/[|,]/).map((n) => n.trim()).filter(Boolean));
    return { test: (value) => value !== undefined && names.has(value) };
  }
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(text));
    return { test: (value) => value !== undefined && re.matcher(value).find() };
  } catch (err) {
    return {
      error: `matcher ${JSON.stringify(text)} is not a valid regular expression (${(err as Error).message})`,
    };
  }
}
