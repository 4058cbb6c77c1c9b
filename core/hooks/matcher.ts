// A hook's matcher: empty or `*` matches everything; only letters, digits, `_`, `-`, `,`, `|` and spaces is a
// list of exact names; anything else is a regular expression (RE2 through re2js: linear time, no pattern can
// hang navi), tested anywhere in the value as Claude Code does. re2js is loaded only when a matcher is an
// expression (`expressionsFor`), so hooks with name matchers cost no regular-expression engine.
import type { RE2JS } from "re2js";

/** The regular-expression engine matchers compile with (re2js's `RE2JS`). */
export type Expressions = typeof RE2JS;

/** Characters of a matcher that is a list of exact names. */
const NAME_LIST = /^[A-Za-z0-9_,| -]*$/;

/** A compiled matcher: a test, or the reason the expression is invalid. */
export type CompiledMatcher = { test(value: string | undefined): boolean } | { error: string };

/** Whether `matcher` is a regular expression (not empty, `*` or a list of exact names). */
export function isExpression(matcher: string | undefined): boolean {
  const text = (matcher ?? "").trim();
  return !(text === "" || text === "*" || NAME_LIST.test(text));
}

/** The engine, loaded when one of `matchers` is an expression; else undefined (nothing loaded). */
export async function expressionsFor(matchers: Iterable<unknown>): Promise<Expressions | undefined> {
  for (const m of matchers) {
    if (typeof m === "string" && isExpression(m)) return (await import("re2js")).RE2JS;
  }
  return undefined;
}

/**
 * Compile `matcher` (see the module header) with `re2`, which an expression needs (see `expressionsFor`); an
 * invalid expression gives `{ error }`, never a silent no-match.
 */
export function compileMatcher(matcher: string | undefined, re2?: Expressions): CompiledMatcher {
  const text = (matcher ?? "").trim();
  if (text === "" || text === "*") return { test: () => true };
  if (NAME_LIST.test(text)) {
    const names = new Set(text.split(/[|,]/).map((n) => n.trim()).filter(Boolean));
    return { test: (value) => value !== undefined && names.has(value) };
  }
  if (!re2) {
    return { error: `matcher ${JSON.stringify(text)} needs the expression engine, which was not loaded` };
  }
  try {
    const re = re2.compile(re2.translateRegExp(text));
    return { test: (value) => value !== undefined && re.matcher(value).find() };
  } catch (err) {
    return {
      error: `matcher ${JSON.stringify(text)} is not a valid regular expression (${(err as Error).message})`,
    };
  }
}
