// Rules of the house style that a reviewer would otherwise check by eye: no function over 80 lines, and no
// output that bypasses the one output sink. Each rule is tested against known-bad code too.
import { stripTypeScriptTypes } from "node:module";
import { join, relative } from "node:path";
import * as acorn from "acorn";
import { assertEquals, ROOT } from "./helpers.ts";

/** A function longer than the limit: where it starts and how many lines it has. */
export interface LongFunction {
  at: string;
  name: string;
  lines: number;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Functions of `source` (TypeScript) longer than `limit` lines, outermost and nested alike. */
export function longFunctions(source: string, opts: { file: string; limit: number }): LongFunction[] {
  let js: string;
  try {
    js = stripTypeScriptTypes(source, { mode: "strip" });
  } catch (err) {
    throw new Error(`${opts.file}: ${(err as Error).message}`);
  }
  const ast = acorn.parse(js, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const out: LongFunction[] = [];
  const visit = (node: acorn.Node, name: string) => {
    const n = node as acorn.Node & Record<string, unknown> & { loc: acorn.SourceLocation };
    if (FUNCTIONS.has(n.type)) {
      const lines = n.loc.end.line - n.loc.start.line + 1;
      const id = (n.id as { name?: string } | null)?.name ?? name;
      if (lines > opts.limit) {
        out.push({ at: `${opts.file}:${n.loc.start.line}`, name: id || "(anonymous)", lines });
      }
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === "loc") continue;
      const label = n.type === "MethodDefinition" || n.type === "Property" || n.type === "VariableDeclarator"
        ? String(((n.key ?? n.id) as { name?: string } | undefined)?.name ?? "")
        : name;
      if (Array.isArray(value)) { for (const v of value) v && typeof v.type === "string" && visit(v, label); }
      else if (value && typeof (value as acorn.Node).type === "string") visit(value as acorn.Node, label);
    }
  };
  visit(ast, "");
  return out;
}

/** Places in `source` that write to the terminal or a pipe without the output sink. */
export function bypassesSink(source: string): string[] {
  const found: string[] = [];
  source.split("\n").forEach((line, i) => {
    if (/^\s*(\/\/|\*)/.test(line)) return;
    const m = /\bconsole\.(log|error|warn|info|debug)\(|\bDeno\.std(out|err)\.write(Sync)?\(/.exec(line);
    if (m) found.push(`${i + 1}: ${m[0]}`);
  });
  return found;
}

async function sources(dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (p.endsWith(".ts") && !p.endsWith(".d.ts")) out.push(p);
    }
  };
  for (const d of dirs) await walk(d);
  return out.sort();
}

const GENERATED = new Set(["core/plugins/worker_js.ts", "plugins/embedded.ts"]);

Deno.test("no function of navi's code is over 80 lines", async () => {
  const long: LongFunction[] = [];
  for (const file of await sources(["core", "tools", "scripts"])) {
    if (GENERATED.has(file)) continue;
    const text = await Deno.readTextFile(join(ROOT, file));
    long.push(...longFunctions(text, { file, limit: 80 }));
  }
  assertEquals(long, []);
});

Deno.test("the function-length rule sees declarations, methods, arrows and closures, typed code too", () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i}: number = ${i};`).join("\n");
  const source = [
    `export function short(a: string): string {\n${body(3)}\n  return a;\n}`,
    `export function long(a: string): string {\n${body(85)}\n  return a;\n}`,
    `class K {\n  method(): void {\n${body(81)}\n  }\n}`,
    `const arrow = (x: number): number => {\n${body(90)}\n  return x;\n};`,
    `function outer() {\n  const inner = () => {\n${body(82)}\n  };\n  return inner;\n}`,
  ].join("\n");
  const found = longFunctions(source, { file: "x.ts", limit: 80 }).map((f) => `${f.name} ${f.lines}`);
  assertEquals(found, ["long 88", "method 83", "arrow 93", "outer 87", "inner 84"]);
});

Deno.test("every byte for a terminal or a pipe passes the output sink: no console.* or Deno.stdout writes elsewhere", async () => {
  const bad: string[] = [];
  for (const file of await sources(["core", "tools"])) {
    if (file.startsWith("core/output/")) continue;
    const found = bypassesSink(await Deno.readTextFile(join(ROOT, file)));
    bad.push(...found.map((f) => `${relative(".", file)}:${f}`));
  }
  assertEquals(bad, []);
  assertEquals(
    bypassesSink("console.log(x);\n// console.error(y)\nDeno.stderr.writeSync(b);\nsink.write(z);"),
    [
      "1: console.log(",
      "3: Deno.stderr.writeSync(",
    ],
  );
});
