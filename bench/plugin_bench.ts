// What a plugin tool call costs now that plugins run in workers (`deno task bench`): the first call of a
// plugin (its worker starts, evaluates the plugin and runs register()) and later calls, each against the same
// handler called in-process. Warm cache: loading the definitions starts no worker.
import { join } from "node:path";
import { PluginLoader, type ToolContext, ToolRegistry } from "../core/mod.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const home = await Deno.makeTempDir({ prefix: "navi-bench-plugin-" });
await Deno.mkdir(join(home, "plugins"));
await Deno.copyFile(join(ROOT, "plugins/examples/word_count.ts"), join(home, "plugins/word_count.ts"));
const ctx: ToolContext = {
  workspace: home,
  signal: new AbortController().signal,
  confirm: () => Promise.resolve(false),
};
const ARGS = '{"text":"one two three\\nfour"}';

async function loaded(): Promise<{ registry: ToolRegistry; loader: PluginLoader }> {
  const registry = new ToolRegistry();
  const loader = new PluginLoader(registry, { home, workspace: home, version: "bench" });
  await loader.load();
  return { registry, loader };
}
await (await loaded()).loader.close({ flush: false });

function count(text: string) {
  return { ok: true, lines: text.split("\n").length, words: text.split(/\s+/).filter(Boolean).length };
}

Deno.bench({
  name: "handler called in-process (what the call did before workers)",
  group: "plugin call",
  baseline: true,
  fn: () => void count(JSON.parse(ARGS).text),
});

const warm = await loaded();
await warm.registry.invoke("word_count", ARGS, ctx);
Deno.bench({
  name: "later call of a plugin tool (worker running)",
  group: "plugin call",
  fn: async () => void await warm.registry.invoke("word_count", ARGS, ctx),
});

Deno.bench({
  name: "first call of a plugin tool (starts its worker)",
  group: "plugin call",
  n: 30,
  warmup: 3,
  async fn(b) {
    const { registry, loader } = await loaded();
    b.start();
    const r = await registry.invoke("word_count", ARGS, ctx);
    b.end();
    if (!r.ok) throw new Error(r.error);
    await loader.close({ flush: false });
  },
});

Deno.bench({
  name: "loading 1 plugin's definitions from the cache (no worker)",
  group: "plugin load",
  n: 30,
  async fn(b) {
    b.start();
    const { loader } = await loaded();
    b.end();
    await loader.close({ flush: false });
  },
});

globalThis.addEventListener("unload", () => {
  warm.loader.close({ flush: false });
  Deno.removeSync(home, { recursive: true });
});
