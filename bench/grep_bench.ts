// grep's regex engine: re2js (linear time, what grep uses) against V8's backtracking RegExp on the same lines.
import { RE2JS } from "re2js";

const lines: string[] = [];
for (let i = 0; i < 20_000; i++) {
  lines.push(`  const value_${i} = compute(${i}, "text ${i % 97}"); // note ${i % 13 === 0 ? "TODO" : "ok"}`);
}

for (const pattern of ["TODO", "\\bvalue_\\d+\\b", 'compute\\(\\d+, "text 5\\d"\\)', "[a-z]+_[a-z]+\\("]) {
  const js = new RegExp(pattern);
  const re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
  Deno.bench({
    name: `RegExp ${pattern}`,
    group: pattern,
    baseline: true,
    fn: () => void lines.filter((l) => js.test(l)).length,
  });
  Deno.bench({
    name: `re2js ${pattern}`,
    group: pattern,
    fn: () => void lines.filter((l) => re2.test(l)).length,
  });
}
