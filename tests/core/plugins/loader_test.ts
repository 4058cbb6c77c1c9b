import { dirname, join } from "node:path";
import { discoverPlugins, PluginLoader, ToolRegistry } from "../../../core/mod.ts";
import { STOP_GRACE_MS } from "../../../core/plugins/host.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { FakeClock } from "../../support/clock.ts";
import { assert, assertEquals, assertMatch, ROOT, tempDir, toolContext, until } from "../../helpers.ts";

async function loaderWith(
  files: Record<string, string>,
  timeoutMs = 1000,
  more: { clock?: FakeClock; log?: (line: string) => void } = {},
) {
  const dir = await tempDir();
  await Deno.mkdir(join(dir.path, "plugins"));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir.path, "plugins", name)), { recursive: true });
    await Deno.writeTextFile(join(dir.path, "plugins", name), text);
  }
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.register(t);
  const loader = new PluginLoader(registry, {
    home: dir.path,
    workspace: dir.path,
    version: "9.9.9",
    config: { cfg: { greeting: "hey", permissions: { read: false } } },
    timeoutMs,
    ...more,
  });
  const home = {
    path: dir.path,
    async [Symbol.asyncDispose]() {
      await loader.close();
      await dir[Symbol.asyncDispose]();
    },
  };
  return { home, registry, loader, reports: await loader.load() };
}

const tool = (name: string, extra = "") =>
  `navi.registerTool({ name: "${name}", description: "- ${name}.", parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true }) ${extra}});`;

Deno.test("discovery: sorted, only .ts/.js/.mjs, no _ or . prefixes, no .d.ts; missing dir is fine", async () => {
  await using home = await tempDir();
  for (const f of ["b.ts", "a.js", "c.mjs", "_off.ts", ".hidden.ts", "navi.d.ts", "notes.md"]) {
    await Deno.writeTextFile(join(home.path, f), "");
  }
  assertEquals(discoverPlugins(home.path), ["a.js", "b.ts", "c.mjs"]);
  assertEquals(discoverPlugins(join(home.path, "nope")), []);
});

Deno.test("a typed plugin with interfaces, generics, enums and type-only imports loads and runs", async () => {
  const { home, registry, reports } = await loaderWith({
    "typed.ts": `import type { NaviPluginApi } from "./navi.d.ts";
interface Box<T> { value: T }
enum Mode { Upper = "upper", Lower = "lower" }
function wrap<T>(value: T): Box<T> { return { value }; }
export default function register(navi: NaviPluginApi): void {
  const cfg = navi.config as { greeting: string } | undefined;
  navi.registerTool({
    name: "shout",
    description: "- Shouts.",
    parameters: navi.z.object({ text: navi.z.string(), mode: navi.z.enum(["upper", "lower"]) }),
    approval: "read_only",
    handler: ({ text, mode }: { text: string; mode: string }) =>
      ({ ok: true, ...wrap(mode === Mode.Upper ? text.toUpperCase() : text.toLowerCase()), v: navi.version, cfg: cfg ?? null }),
  });
}`,
  });
  await using _ = home;
  assertEquals(reports, [{
    file: "typed.ts",
    status: "loaded",
    tools: ["shout"],
    permissions: "read $WORKSPACE",
  }]);
  assertEquals(registry.sourceOf("shout"), { kind: "plugin", origin: "typed.ts" });
  const r = await registry.invoke("shout", '{"text":"hi","mode":"upper"}', toolContext(home.path));
  assertEquals(r, { ok: true, value: "HI", v: "9.9.9", cfg: null });
  const bad = await registry.invoke("shout", '{"text":"hi","mode":"x"}', toolContext(home.path));
  assert(!bad.ok);
  assertMatch(bad.error, /mode: /);
});

Deno.test("plugin config is the plugins.<stem> section without its permissions", async () => {
  const { home, registry } = await loaderWith({
    "cfg.js":
      `export default (navi) => navi.registerTool({ name: "c", description: "- c", parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true, cfg: navi.config }) });`,
  });
  await using _ = home;
  assertEquals(await registry.invoke("c", "{}", toolContext(home.path)), {
    ok: true,
    cfg: { greeting: "hey" },
  });
});

Deno.test("every fault is contained and reported in one line naming the problem", async () => {
  const { home, registry, reports } = await loaderWith({
    "01_syntax.ts": "export default function (navi: any) {\n  navi.registerTool({ name: 'x' \n}\n",
    "02_not_function.js": "export default { name: 'x' };",
    "03_throws.js": "export default () => { throw new Error('kaboom'); };",
    "04_rejects.mjs": "export default async () => { throw new Error('async kaboom'); };",
    "05_hangs.js": "export default () => new Promise(() => {});",
    "05_top_level_await.js": "await new Promise(() => {});\nexport default () => {};",
    "05_exit_in_register.js": "export default () => { Deno.exit(3); };",
    "05_exit_at_top.js": "Deno.exit();\nexport default () => {};",
    "05_relative_import.ts": 'import { x } from "./x.ts";\nexport default () => x;',
    "05_throws_at_top.js": "export default () => {};\nthrow new Error('top level boom');",
    "06_bad_name.js": `export default (navi) => { ${tool("bad name")} };`,
    "07_no_description.js":
      `export default (navi) => navi.registerTool({ name: "nd", parameters: navi.z.object({}), approval: "read_only", handler() {} });`,
    "08_bad_params.js":
      `export default (navi) => navi.registerTool({ name: "bp", description: "- x", parameters: { type: "object" }, approval: "read_only", handler() {} });`,
    "09_bad_approval.js":
      `export default (navi) => navi.registerTool({ name: "ba", description: "- x", parameters: navi.z.object({}), approval: "sometimes", handler() {} });`,
    "10_builtin.js": `export default (navi) => { ${tool("bash")} };`,
    "11_first.js": `export default (navi) => { ${tool("shared")} };`,
    "12_second.js": `export default (navi) => { ${tool("shared")} ${tool("other")} };`,
    "13_good.js": `export default (navi) => { ${tool("good")} };`,
  });
  await using _ = home;
  const byFile = Object.fromEntries(reports.map((r) => [r.file, r]));
  const expect: Record<string, RegExp> = {
    "01_syntax.ts": /^syntax error at 01_syntax\.ts:\d+:\d+: /,
    "02_not_function.js": /default export must be a function/,
    "03_throws.js": /register\(\) failed: kaboom/,
    "04_rejects.mjs": /register\(\) failed: async kaboom/,
    "05_hangs.js": /did not finish loading within 1000 ms \(module evaluation and register\(\)\)/,
    "05_top_level_await.js": /did not finish loading within 1000 ms/,
    "05_exit_in_register.js": /^Deno\.exit\(3\) was called while loading$/,
    "05_exit_at_top.js": /^Deno\.exit\(\) was called while loading$/,
    "05_relative_import.ts":
      /^05_relative_import\.ts:1:19: cannot import "\.\/x\.ts": a single-file plugin imports no other/,
    "05_throws_at_top.js": /^05_throws_at_top\.js:2:7: top level boom$/,
    "06_bad_name.js": /tool "bad name": invalid name/,
    "07_no_description.js": /tool "nd": missing description/,
    "08_bad_params.js": /tool "bp": parameters must be navi\.z\.object/,
    "09_bad_approval.js": /tool "ba": approval must be one of read_only, write, command/,
    "10_builtin.js": /"bash" collides with a built-in tool \(the built-in wins\)/,
    "12_second.js": /"shared" is already registered by 11_first\.js \(the earlier file wins\)/,
  };
  for (const [file, re] of Object.entries(expect)) {
    assertEquals(byFile[file].status, "failed", file);
    assertMatch(byFile[file].error!, re, file);
    assert(!byFile[file].error!.includes("\n"), `${file}: one line`);
  }
  assertEquals(byFile["11_first.js"].status, "loaded");
  assertEquals(byFile["13_good.js"].tools, ["good"]);
  assert(!registry.has("other"), "a failed plugin registers none of its tools");
  assertEquals(registry.sourceOf("bash")?.kind, "builtin");
});

Deno.test("a plugin tool runs under the registry's timeout and error rules", async () => {
  const { home, registry } = await loaderWith({
    "slow.js": `export default (navi) => {
      navi.registerTool({ name: "slow", description: "- s", parameters: navi.z.object({}), approval: "read_only", timeoutMs: 50,
        handler: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener("abort", () => r({ ok: true }))) });
      navi.registerTool({ name: "oops", description: "- o", parameters: navi.z.object({}), approval: "read_only",
        handler: () => { throw new Error("plugin bug"); } });
    };`,
  });
  await using _ = home;
  assertEquals(await registry.invoke("slow", "{}", toolContext(home.path)), {
    ok: false,
    error: "slow timed out after 50 ms",
  });
  assertEquals(await registry.invoke("oops", "{}", toolContext(home.path)), {
    ok: false,
    error: "plugin bug",
  });
});

Deno.test("a plugin edited between two loads: the new version is used", async () => {
  const { home, registry, loader } = await loaderWith({
    "v.js":
      `export default (navi) => navi.registerTool({ name: "ver", description: "- v", parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true, v: 1 }) });`,
  });
  await using _ = home;
  assertEquals(await registry.invoke("ver", "{}", toolContext(home.path)), { ok: true, v: 1 });
  await Deno.writeTextFile(
    join(home.path, "plugins", "v.js"),
    `export default (navi) => navi.registerTool({ name: "ver", description: "- v2", parameters: navi.z.object({}), approval: "read_only", handler: () => ({ ok: true, v: 2 }) });`,
  );
  await loader.load();
  assertEquals(await registry.invoke("ver", "{}", toolContext(home.path)), { ok: true, v: 2 });
  assertEquals(registry.get("ver")?.description, "- v2");
});

Deno.test("the example plugins load", async () => {
  const files: Record<string, string> = {};
  for (const f of ["word_count.ts", "json_query.ts", "http_status.ts"]) {
    files[f] = await Deno.readTextFile(join(ROOT, "plugins", "examples", f));
  }
  const { home, registry, reports } = await loaderWith(files);
  await using _ = home;
  assert(reports.every((r) => r.status === "loaded"), JSON.stringify(reports));
  assertEquals(await registry.invoke("word_count", '{"text":"a b\\nc"}', toolContext(home.path)), {
    ok: true,
    lines: 2,
    words: 3,
    characters: 5,
  });
  const s = await registry.invoke("http_status", '{"code":404}', toolContext(home.path));
  assertEquals(s, { ok: true, code: 404, class: "ClientError", meaning: "Not Found" });
  await Deno.writeTextFile(join(home.path, "package.json"), '{"scripts":{"test":"deno test"}}');
  assertEquals(
    await registry.invoke(
      "json_query",
      '{"path":"package.json","query":"scripts.test"}',
      toolContext(home.path),
    ),
    { ok: true, value: "deno test" },
    "json_query reads the workspace with the default permission",
  );
});

Deno.test("reload keeps an unchanged plugin's worker; an idle worker ends and the next call starts one", async () => {
  const { home, registry, loader } = await loaderWith({
    "keep.js": `export default (navi) => { ${tool("keep")} };`,
  });
  await using _ = home;
  const started = loader.workersStarted;
  assertEquals(await registry.invoke("keep", "{}", toolContext(home.path)), { ok: true });
  assertEquals(loader.workersStarted, started + 1);
  await loader.load();
  assertEquals(await registry.invoke("keep", "{}", toolContext(home.path)), { ok: true });
  assertEquals(loader.workersStarted, started + 1, "the unchanged plugin kept its running worker");

  const clock = new FakeClock();
  const idle = new PluginLoader(registry, {
    home: home.path,
    workspace: home.path,
    version: "9.9.9",
    idleMs: 100,
    clock,
  });
  try {
    await idle.load();
    assertEquals(await registry.invoke("keep", "{}", toolContext(home.path)), { ok: true });
    clock.advance(100);
    assertEquals(await registry.invoke("keep", "{}", toolContext(home.path)), { ok: true });
    assertEquals(idle.workersStarted, 2, "the idle worker ended; the next call started a new one");
  } finally {
    await idle.close();
  }
});

Deno.test("Ctrl-C during a spinning handler ends its worker and returns within the stop grace", async () => {
  const clock = new FakeClock();
  const lines: string[] = [];
  const { home, registry, loader } = await loaderWith(
    {
      "spin.js": `export default (navi) => {
      navi.registerTool({ name: "spin", description: "- s", parameters: navi.z.object({}), approval: "read_only",
        handler: () => { console.log("spinning"); while (true) {} } });
      ${tool("after")}
    };`,
    },
    1000,
    { clock, log: (line) => lines.push(line) },
  );
  await using _ = home;
  assertEquals(await registry.invoke("after", "{}", toolContext(home.path)), { ok: true }, "the worker runs");
  const started = loader.workersStarted;
  const controller = new AbortController();
  let returned = false;
  const call = registry.invoke("spin", "{}", toolContext(home.path, { signal: controller.signal })).finally(
    () => (returned = true),
  );
  await until(() => lines.some((l) => l.endsWith("spinning")), 5000, "the handler spinning");
  controller.abort();
  clock.advance(STOP_GRACE_MS);
  await until(() => returned, 5000, "the call returning within the grace after Ctrl-C");
  assertEquals(await call, { ok: false, error: "Aborted by the user" });
  assert(lines.some((l) => l.endsWith("spin did not stop; its worker was ended")), lines.join("\n"));
  assertEquals(await registry.invoke("after", "{}", toolContext(home.path)), { ok: true });
  assertEquals(loader.workersStarted, started + 1, "the next call started a new worker");
});

Deno.test("plugin results keep the { ok, ... } shape and the truncation rules", async () => {
  const { home, registry } = await loaderWith({
    "big.js": `export default (navi) => {
      navi.registerTool({ name: "big", description: "- b", parameters: navi.z.object({}), approval: "read_only",
        handler: () => "x".repeat(50000) });
      navi.registerTool({ name: "plain", description: "- p", parameters: navi.z.object({}), approval: "read_only",
        handler: () => 42 });
      navi.registerTool({ name: "nope", description: "- n", parameters: navi.z.object({}), approval: "read_only",
        handler: () => ({ ok: false }) });
    };`,
  });
  await using _ = home;
  const big = await registry.invoke("big", "{}", toolContext(home.path));
  assertEquals(big.ok, true);
  assertEquals(big.truncated, true);
  assert(String(big.output).length < 31000);
  assertMatch(String(big.output), /\[\.\.\. truncated \d+ characters\]$/);
  assertEquals(await registry.invoke("plain", "{}", toolContext(home.path)), { ok: true, result: 42 });
  assertEquals(await registry.invoke("nope", "{}", toolContext(home.path)), {
    ok: false,
    error: "Tool failed",
  });
  assertEquals(
    await registry.invoke("plain", "[]", toolContext(home.path)),
    { ok: false, error: "Invalid arguments for plain: expected a JSON object, got an array." },
  );
});
