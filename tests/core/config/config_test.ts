import { join } from "node:path";
import {
  ConfigError,
  deferralSettings,
  loadConfig,
  naviHome,
  parseConfig,
  updateConfigFile,
} from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, assertThrows, tempDir } from "../../helpers.ts";

function configError(text: string): string {
  try {
    parseConfig(text, "/h/config.json");
  } catch (err) {
    assert(err instanceof ConfigError);
    return err.message;
  }
  throw new Error("expected ConfigError");
}

Deno.test("a missing config file means defaults", async () => {
  await using tmp = await tempDir();
  const home = tmp.path;
  assertEquals(await loadConfig(home), {});
});

Deno.test("a full config parses", () => {
  const cfg = parseConfig(
    JSON.stringify({
      providers: { local: { base_url: "http://127.0.0.1:1/v1", api_key: "$KEY" } },
      provider: "local",
      model: "m",
      mcp_servers: { fs: { command: "x", args: ["a"] }, web: { url: "http://127.0.0.1:2/mcp" } },
      approval: "plan",
      features: { bash: false },
      plugins: { word_count: { x: 1 } },
    }),
    "c.json",
  );
  assertEquals(cfg.approval, { mode: "plan" });
  assertEquals(cfg.mcp_servers?.fs.args, ["a"]);
});

Deno.test("invalid config errors name the file and the field, and never echo values", () => {
  assertMatch(configError('{"model": 5}'), /^\/h\/config\.json: model: .*expected string/);
  assertMatch(configError('{"modle": "x"}'), /^\/h\/config\.json: \(top level\): Unrecognized key: "modle"/);
  assertMatch(
    configError('{"providers": {"a": {"base_url": 1, "api_key": "sk-secret-1"}}}'),
    /providers\.a\.base_url/,
  );
  assertMatch(configError('{"approval": "yolo"}'), /approval\.mode: /);
  assertMatch(
    configError('{"mcp_servers": {"a__b": {"command": "x"}}}'),
    /mcp_servers\.a__b: invalid server name/,
  );
  assertMatch(configError('{"mcp_servers": {"a": {}}}'), /mcp_servers\.a: needs exactly one of command/);
  assertMatch(configError('{"providers": {"a": {"api": "soap"}}}'), /providers\.a\.api: /);
  assertMatch(
    configError('{"models": {"m": {"reasoning_effort": "huge"}}}'),
    /models\.m\.reasoning_effort: /,
  );
  assertMatch(configError('{"providers": {"a": {"cache_control": true}}}'), /providers\.a\.cache_control: /);
  const json = configError('{"api_key": sk-secret-2 }');
  assertMatch(json, /^\/h\/config\.json: invalid JSON/);
  assert(!json.includes("sk-secret-2"), "JSON errors do not echo the text");
  assertMatch(configError('{"a":1,}'), /invalid JSON at line 1 column 8/);
});

Deno.test("naviHome honours NAVI_HOME", () => {
  const env = (o: Record<string, string>) => ({ get: (k: string) => o[k] });
  assertEquals(naviHome(env({ NAVI_HOME: "/x", HOME: "/h" })), "/x");
  assertEquals(naviHome(env({ HOME: "/h" })), "/h/.navi");
});

Deno.test("updateConfigFile keeps other settings and refuses an invalid result", async () => {
  await using tmp = await tempDir();
  const home = tmp.path;
  await Deno.writeTextFile(join(home, "config.json"), '{"model": "m", "features": {"bash": false}}');
  await updateConfigFile(home, (raw) => (raw.mcp_servers = { a: { command: "x" } }));
  const saved = JSON.parse(await Deno.readTextFile(join(home, "config.json")));
  assertEquals(saved, { model: "m", features: { bash: false }, mcp_servers: { a: { command: "x" } } });
  let failed = false;
  await updateConfigFile(home, (raw) => (raw.model = 3)).catch(() => (failed = true));
  assert(failed);
  assertEquals(JSON.parse(await Deno.readTextFile(join(home, "config.json"))).model, "m");
  assertEquals([...Deno.readDirSync(home)].map((e) => e.name), ["config.json"], "no temp file left");
});

Deno.test("the tools section: defer auto|never|always, defer_above_tokens, cache_ttl_s, search_above", () => {
  const cfg = parseConfig(
    '{"tools":{"defer":"never","defer_above_tokens":8000,"cache_ttl_s":3600,"search_above":32}}',
    "c.json",
  );
  assertEquals(cfg.tools, { defer: "never", defer_above_tokens: 8000, cache_ttl_s: 3600, search_above: 32 });
  assertEquals(deferralSettings(undefined), {
    defer: "auto",
    deferAboveTokens: 4000,
    cacheTtlMs: 300_000,
    searchAbove: 64,
  });
  assertThrows(() => parseConfig('{"tools":{"defer":"sometimes"}}', "c.json"), /^c\.json: tools\.defer: /);
  assertThrows(
    () => parseConfig('{"tools":{"search_above":0}}', "c.json"),
    /^c\.json: tools\.search_above: /,
  );
  assertThrows(() => parseConfig('{"tools":{"cache":1}}', "c.json"), /^c\.json: tools: /);
});

Deno.test("notify: true, false or { after_s }; anything else is one line naming the field", () => {
  assertEquals(parseConfig('{"notify":false}', "c.json").notify, false);
  assertEquals(parseConfig('{"notify":{"after_s":30}}', "c.json").notify, { after_s: 30 });
  assertThrows(
    () => parseConfig('{"notify":"yes"}', "c.json"),
    /^c\.json: notify: must be true, false or \{ "after_s": seconds \}$/,
  );
  assertThrows(() => parseConfig('{"notify":{"after":3}}', "c.json"), /^c\.json: notify/);
  assertThrows(() => parseConfig('{"notify":{"after_s":-1}}', "c.json"), /^c\.json: notify/);
});
