// Definitions read from a plugin's source without running it, and the isolation of the plugins that must run
// to be read: each in a worker of its own, with its own permissions only.
import { join } from "node:path";
import { PluginLoader, ToolRegistry } from "../../../core/mod.ts";
import { compilePlugin } from "../../../core/plugins/compile.ts";
import { readPlugin } from "../../../core/plugins/source.ts";
import { staticDefinitions } from "../../../core/plugins/static_defs.ts";
import { assertEquals, tempDir } from "../../helpers.ts";

async function homeWith(files: Record<string, string>) {
  const dir = await tempDir();
  await Deno.mkdir(join(dir.path, "plugins"));
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(dir.path, "plugins", name), text);
  }
  return dir;
}

async function load(home: string, log: string[] = []) {
  const loader = new PluginLoader(new ToolRegistry(), {
    home,
    workspace: home,
    version: "9.9.9",
    timeoutMs: 10_000,
    log: (line) => void log.push(line),
  });
  const reports = await loader.load();
  await loader.close();
  const cacheDir = join(home, "cache", "plugins");
  const tools = [...Deno.readDirSync(cacheDir)].map((e) => e.name).sort()
    .flatMap((n) => JSON.parse(Deno.readTextFileSync(join(cacheDir, n))).tools);
  return { loader, reports, tools };
}

const DATA = `import type { NaviPluginApi } from "./navi.d.ts";
export default function register(navi: NaviPluginApi): void {
  navi.registerTool({
    name: "data_tool",
    description: "- Every " + "kind of schema.",
    parameters: navi.z.object({
      mode: navi.z.enum(["fast", "slow"]).describe("How."),
      count: navi.z.number().int().min(1).max(100).optional(),
      tags: navi.z.array(navi.z.string().min(1)).default([]),
      ratio: navi.z.number().gte(-1).lte(1).nullable(),
      nested: navi.z.object({ on: navi.z.boolean(), name: navi.z.literal("x") }).optional(),
      either: navi.z.union([navi.z.string(), navi.z.number()]),
    }),
    approval: "command",
    concurrencySafe: true,
    timeoutMs: 2500,
    handler: async ({ mode }) => ({ ok: true, mode }),
  });
  navi.registerTool({
    name: "data_two",
    description: \`- Second.\`,
    parameters: navi.z.object({ text: navi.z.string().describe("Some text.") }),
    approval: "read_only",
    handler({ text }) { return { ok: true, text }; },
  });
}
`;

Deno.test("definitions read from the source equal those the plugin's own worker registers, and start no worker", async () => {
  await using plain = await homeWith({ "data.ts": DATA });
  await using run = await homeWith({ "data.ts": `globalThis.ran = true;\n${DATA}` });
  const log: string[] = [];
  const read = await load(plain.path, log);
  const evaluated = await load(run.path);
  assertEquals(read.reports.map((r) => [r.status, r.tools]), [["loaded", ["data_tool", "data_two"]]]);
  assertEquals(read.loader.workersStarted, 0);
  assertEquals(read.loader.staticReads, 1);
  assertEquals(log, ["[plugin data.ts] definitions read from its source (no worker)"]);
  assertEquals(evaluated.loader.workersStarted, 1, "top-level code: the plugin is evaluated in its worker");
  assertEquals(evaluated.loader.staticReads, 0);
  assertEquals(read.tools, evaluated.tools);
  assertEquals(read.tools[0].timeoutMs, 2500);
  assertEquals(read.tools[0].approval, "command");
});

Deno.test("anything that is not plain data is left to the worker (nothing of the plugin is called in navi)", async () => {
  const register = (body: string, top = "") =>
    `${top}\nexport default function register(navi) {\n${body}\n}\n`;
  const ok = `navi.registerTool({ name: "t", description: "- T.", parameters: navi.z.object({}), ` +
    `approval: "read_only", handler: () => ({ ok: true }) });`;
  const cases: Record<string, string> = {
    "top-level call": register(ok, "console.log('hi');"),
    "top-level const from a call": register(ok, "const x = Date.now();"),
    "a class (static blocks run)": register(ok, "class A { static { globalThis.x = 1; } }"),
    "a description from config": register(ok.replace(`"- T."`, "String(navi.config)")),
    "a getter": register(ok.replace(`name: "t"`, `get name() { return "t"; }`)),
    "a spread": register(ok.replace(`name: "t",`, `...{ name: "t" },`)),
    "a refine with a function": register(
      ok.replace("navi.z.object({})", "navi.z.object({}).refine(() => true)"),
    ),
    "a regex": register(ok.replace("navi.z.object({})", "navi.z.object({ a: navi.z.string().regex(/a/) })")),
    "a schema through a variable": register(`const s = navi.z.object({});\n${ok}`),
    "a destructured api": register(ok).replace("register(navi)", "register({ registerTool, z })"),
    "async register": register(ok).replace("function register", "async function register"),
    "another statement in register": register(`${ok}\nnavi.log("x");`),
    "a zod method outside the list": register(ok.replace("navi.z.object({})", "navi.z.custom()")),
    "an unknown field": register(ok.replace(`name: "t",`, `name: "t", extra: 1,`)),
    "a handler that is not a function": register(ok.replace("handler: () => ({ ok: true })", "handler: 1")),
    "a duplicate tool": register(`${ok}\n${ok}`),
    "a default that is not a function": "export default 5;\n",
  };
  await using dir = await tempDir();
  for (const [what, text] of Object.entries(cases)) {
    await Deno.writeTextFile(join(dir.path, "p.js"), text);
    const compiled = compilePlugin(await readPlugin(dir.path, "p.js"));
    assertEquals(staticDefinitions(compiled), undefined, what);
  }
  await Deno.writeTextFile(join(dir.path, "p.js"), register(ok, "const LIMIT = [1, 'a', { b: true }];"));
  assertEquals(staticDefinitions(compilePlugin(await readPlugin(dir.path, "p.js")))?.map((d) => d.name), [
    "t",
  ]);
});

Deno.test("extraction in workers: a plugin's top-level code cannot use a permission it did not declare, nor see another plugin", async () => {
  await using secret = await tempDir();
  const file = join(secret.path, "secret.txt");
  await Deno.writeTextFile(file, "TOP-SECRET");
  const probe = (name: string, expr: string, top: string, perms = "") =>
    `${perms}\n${top}\nexport default function register(navi) {\n  navi.registerTool({ name: "${name}", ` +
    `description: "- " + ${expr}, parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true }) });\n}\n`;
  const tryRead = `let seen; try { seen = Deno.readTextFileSync(${
    JSON.stringify(file)
  }); } catch (e) { seen = e.name; }`;
  await using home = await homeWith({
    // a_reader declares read access to the secret's folder: it may read it (its own permission).
    "a_reader.ts": probe(
      "a_reader",
      "seen",
      tryRead,
      `export const permissions = { read: [${JSON.stringify(secret.path)}] };`,
    ),
    // b_thief declares nothing: the same read is refused, and a_reader's globals are not its globals.
    "b_thief.ts": probe(
      "b_thief",
      "seen + ' ' + String(globalThis.fromReader)",
      `${tryRead}\nglobalThis.fromB = 1;`,
    ),
    "c_peer.ts": probe(
      "c_peer",
      "String(globalThis.fromB) + ' ' + typeof Deno.readTextFileSync",
      "globalThis.fromReader = 1;",
    ),
  });
  const { reports, tools, loader } = await load(home.path);
  assertEquals(reports.map((r) => r.status), ["loaded", "loaded", "loaded"]);
  assertEquals(loader.workersStarted, 3, "one worker per plugin");
  assertEquals(tools.map((t: { description: string }) => t.description), [
    "- TOP-SECRET",
    "- NotCapable undefined",
    "- undefined function",
  ]);
});
