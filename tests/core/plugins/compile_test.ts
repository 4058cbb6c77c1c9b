// Multi-file plugins: a folder with mod.ts whose relative imports are linked inside the worker; every error
// names the file and line:column, never a blob: or data: URL.
import { dirname, join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";

async function pluginFiles(home: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = join(home, "plugins", name);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

const MULTI = {
  "multi/mod.ts": `import type { NaviPluginApi } from "../navi.d.ts";
import { shout } from "./lib/text.ts";
import * as more from "./lib/deep/more.ts";
export const permissions = { read: ["$WORKSPACE"] } as const;
export default function register(navi: NaviPluginApi): void {
  navi.registerTool({
    name: "shout",
    description: "- Shouts a text.",
    parameters: navi.z.object({ text: navi.z.string() }),
    approval: "read_only",
    handler: ({ text }) => ({ ok: true, text: shout(text), suffix: more.SUFFIX }),
  });
  navi.registerTool({
    name: "fail_deep",
    description: "- Fails in a nested module.",
    parameters: navi.z.object({}),
    approval: "read_only",
    handler: () => more.explode(),
  });
}
`,
  "multi/lib/text.ts": `import { SUFFIX } from "./deep/more.ts";
export function shout(text: string): string {
  return text.toUpperCase() + SUFFIX;
}
`,
  "multi/lib/deep/more.ts": `export const SUFFIX: string = "!";
interface Unused { a: number }
export function explode(): never {
  throw new Error("deep trouble");
}
`,
};

Deno.test("a multi-file plugin: linked modules, a call through them, a handler stack naming the files", async () => {
  await using home = await tempDir();
  await pluginFiles(home.path, MULTI);
  const server = startLlmServer([
    { toolCalls: [{ name: "shout", arguments: '{"text":"hey"}' }, { name: "fail_deep", arguments: "{}" }] },
    { text: "done" },
  ]);
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi(["-p", "go"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    const messages = server.requests[1].body.messages as { role: string; content: string }[];
    const results = messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
    assertEquals(results, [{ ok: true, text: "HEY!", suffix: "!" }, { ok: false, error: "deep trouble" }]);
    const log = await Deno.readTextFile(join(home.path, "logs", "plugins.log"));
    assertMatch(
      log,
      /\[plugin multi\/mod\.ts\] handler error: Error: deep trouble\n\s+at Module\.explode \(multi\/lib\/deep\/more\.ts:4:9\)/,
    );
    assert(!/blob:|data:/.test(log), log);
    const list = await runNavi(["plugins"], { home: home.path });
    assertMatch(list.stdout, /multi\/mod\.ts\s+loaded\s+read \$WORKSPACE\s+shout, fail_deep/);
  } finally {
    await server.close();
  }
});

Deno.test("multi-file plugin errors name the file and line:column", async () => {
  await using home = await tempDir();
  await pluginFiles(home.path, {
    "a_syntax/mod.ts": 'import { x } from "./lib.ts";\nexport default () => x;\n',
    "a_syntax/lib.ts": "export const x = 1;\nexport const y = (;\n",
    "b_outside/mod.ts": '\nimport { x } from "../shared.ts";\nexport default () => x;\n',
    "c_missing/mod.ts": 'export { x } from "./nope.ts";\nexport default () => {};\n',
    "d_no_export/mod.ts": 'import { nothing } from "./lib.ts";\nexport default () => nothing;\n',
    "d_no_export/lib.ts": "export const something = 1;\n",
    "e_cycle/mod.ts": 'import "./a.ts";\nexport default () => {};\n',
    "e_cycle/a.ts": 'import "./b.ts";\n',
    "e_cycle/b.ts": 'import "./a.ts";\n',
    "f_npm/mod.ts": 'import left from "npm:left-pad";\nexport default () => left;\n',
    "g_permissions/mod.ts":
      "const hosts = ['x'];\nexport const permissions = { net: hosts };\nexport default () => {};\n",
    "h_runtime/mod.ts": 'import { boom } from "./lib.ts";\nboom();\nexport default () => {};\n',
    "h_runtime/lib.ts": "export function boom() {\n  throw new Error('at load');\n}\n",
    "shared.ts": "export const x = 1;\nexport default () => {};\n",
  });
  const r = await runNavi(["plugins"], { home: home.path });
  const errors = Object.fromEntries(
    r.stdout.split("\n").map((l) => /^(\S+)\s+failed\s+(.*)$/.exec(l)).filter((m) => m).map((
      m,
    ) => [m![1], m![2]]),
  );
  assertEquals(errors, {
    "a_syntax/mod.ts": "syntax error at a_syntax/lib.ts:2:19: Expression expected",
    "b_outside/mod.ts":
      'b_outside/mod.ts:2:19: cannot import "../shared.ts": it is outside the plugin folder',
    "c_missing/mod.ts":
      'c_missing/mod.ts:1:19: cannot import "./nope.ts": no such module file in the plugin folder',
    "d_no_export/mod.ts":
      "d_no_export/mod.ts:1:10: The requested module 'd_no_export/lib.ts' does not provide an export named 'nothing'",
    "e_cycle/mod.ts":
      "import cycle e_cycle/mod.ts -> e_cycle/a.ts -> e_cycle/b.ts -> e_cycle/a.ts (not supported in plugins)",
    "f_npm/mod.ts":
      'f_npm/mod.ts:1:18: cannot import "npm:left-pad": a plugin imports only its own files (relative paths) and node: built-ins',
    "g_permissions/mod.ts":
      "g_permissions/mod.ts:2:35: permissions must be a literal: { read?, write?, net?, env?, run? }, each true, false or a list of strings",
    "h_runtime/mod.ts": "h_runtime/lib.ts:2:9: at load",
  });
  assert(!/blob:|data:/.test(r.stdout), r.stdout);
  assertMatch(r.stdout, /shared\.ts\s+loaded/);
});
