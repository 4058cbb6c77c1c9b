// Provider presets: `"provider": "groq"` with only GROQ_API_KEY set, `navi providers`, /model listing the
// provider's /models, and preset keys kept secret like configured ones.
import { PRESETS, ProviderError, resolveProvider } from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { onlySession } from "../../support/session_check.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  assertThrows,
  runNavi,
  tempDir,
  testApp,
  writeConfig,
} from "../../helpers.ts";

const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });

Deno.test("a preset name alone is a provider: its base URL and its key variable", () => {
  const groq = resolveProvider(
    { provider: "groq" },
    { model: "moonshotai/kimi-k2" },
    env({ GROQ_API_KEY: "gsk-1" }),
  );
  assertEquals(groq, {
    name: "groq",
    baseURL: "https://api.groq.com/openai/v1",
    apiKey: "gsk-1",
    model: "moonshotai/kimi-k2",
  });
  assertThrows(
    () => resolveProvider({ provider: "groq" }, { model: "x" }, env({})),
    /^provider groq needs its API key in GROQ_API_KEY, which is not set \(or set providers\.groq\.api_key\)$/,
  );
  assertEquals(resolveProvider({}, { provider: "ollama", model: "qwen3" }, env({})).apiKey, "none");
  assertEquals(
    resolveProvider({ provider: "vllm" }, { model: "q" }, env({})).apiKey,
    "none",
    "vLLM's key is optional",
  );
  assertEquals(
    resolveProvider({ provider: "vllm" }, { model: "q" }, env({ VLLM_API_KEY: "v-1" })).apiKey,
    "v-1",
  );
  const or = resolveProvider(
    { provider: "openrouter" },
    { model: "anthropic/claude-4.5-haiku" },
    env({
      OPENROUTER_API_KEY: "or-1",
    }),
  );
  assertEquals([or.openrouter, or.cacheControl], [true, "anthropic"], "anthropic/ models get cache_control");
  for (const p of PRESETS) assert(/^https?:\/\/[^ ]+$/.test(p.base_url), `${p.name} has a base URL`);
  assertEquals(PRESETS.map((p) => p.name), [
    "openai",
    "openrouter",
    "groq",
    "deepseek",
    "mistral",
    "xai",
    "gemini",
    "cerebras",
    "huggingface",
    "ollama",
    "llamacpp",
    "lmstudio",
    "vllm",
  ]);
});

Deno.test("a providers entry starts from its preset (by name or `preset`) and overrides its fields", () => {
  const config = {
    providers: {
      groq: { base_url: "http://127.0.0.1:1/v1" },
      work: { preset: "openrouter", api_key: "$WORK_KEY", api: "responses" as const },
    },
  };
  const groq = resolveProvider(config, { provider: "groq", model: "m" }, env({ GROQ_API_KEY: "gsk-2" }));
  assertEquals([groq.baseURL, groq.apiKey], ["http://127.0.0.1:1/v1", "gsk-2"]);
  const work = resolveProvider(config, { provider: "work", model: "m" }, env({ WORK_KEY: "wk" }));
  assertEquals([work.baseURL, work.apiKey, work.api, work.openrouter], [
    "https://openrouter.ai/api/v1",
    "wk",
    "responses",
    true,
  ]);
  assertThrows(
    () => resolveProvider({ providers: { x: { preset: "nope" } } }, { provider: "x", model: "m" }, env({})),
    /providers\.x\.preset: no preset "nope"/,
  );
  const unknown = () => resolveProvider({}, { provider: "foo", model: "m" }, env({}));
  assertThrows(
    unknown,
    /^unknown provider "foo": config\.json providers has no such entry \(none is configured\) and no preset has that name \(navi providers lists openai, openrouter, groq,/,
  );
  try {
    unknown();
  } catch (err) {
    assert(err instanceof ProviderError);
  }
});

Deno.test('"provider": "groq" with only GROQ_API_KEY set: the key is sent, kept from tools and redacted', async () => {
  const KEY = "gsk-test-GROQ-secret-0042";
  const server = startLlmServer([
    { toolCalls: [{ name: "bash", arguments: '{"command":"env; echo key=$GROQ_API_KEY"}' }] },
    { text: `the key is ${KEY}` },
  ]);
  await using home = await tempDir();
  try {
    // The entry only points the preset at the test server: key, quirks and everything else come from the preset.
    await writeConfig(home.path, {
      provider: "groq",
      providers: { groq: { base_url: server.url } },
      model: "moonshotai/kimi-k2",
      approval: "auto",
      sandbox: { mode: "off" },
    });
    const r = await runNavi(["-p", "show env"], { home: home.path, env: { GROQ_API_KEY: KEY } });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(server.requests[0].headers.get("authorization"), `Bearer ${KEY}`);
    const result = (server.requests[1].body.messages as { role: string; content: string }[]).at(-1)!.content;
    assertMatch(result, /key=\\n/, "the tool process does not get GROQ_API_KEY");
    assertEquals(result.includes("GROQ_API_KEY="), false);
    assertEquals(r.stdout, "the key is [redacted]\n");
    assertEquals((await onlySession(home.path)).includes(KEY), false, "no key in the session file");
  } finally {
    await server.close();
  }
});

Deno.test("navi providers lists the presets with their key variables, set or not, never their values", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, {
    providers: { mine: { base_url: "http://127.0.0.1:9/v1", api_key: "$MINE_KEY" } },
  });
  const r = await runNavi(["providers"], {
    home: home.path,
    env: { GROQ_API_KEY: "gsk-listed-secret-1", MINE_KEY: "" },
  });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(
    r.stdout,
    /^\s+NAME\s+FROM\s+BASE URL\s+KEY\s+NOTES\n\* mine\s+config\s+http:\/\/127\.0\.0\.1:9\/v1\s+MINE_KEY set/,
  );
  assertMatch(
    r.stdout,
    /\n {2}groq\s+preset\s+https:\/\/api\.groq\.com\/openai\/v1\s+GROQ_API_KEY set\s+usage sent twice/,
  );
  assertMatch(r.stdout, /\n {2}ollama\s+preset\s+http:\/\/localhost:11434\/v1\s+none/);
  assertMatch(r.stdout, /\n {2}deepseek\s+preset\s+https:\/\/api\.deepseek\.com\s+DEEPSEEK_API_KEY not set/);
  assertEquals(r.stdout.includes("gsk-listed-secret-1"), false);
  const json = JSON.parse((await runNavi(["providers", "--json"], { home: home.path, env: {} })).stdout);
  assertEquals(json.length, PRESETS.length + 1);
  assertEquals(json.find((p: { name: string }) => p.name === "gemini").key_variable, "GEMINI_API_KEY");
});

Deno.test("/model lists the /models of the current provider (a preset entry)", async () => {
  const server = startLlmServer([], { models: ["kimi-k2", "llama-3.3-70b"] });
  await using home = await tempDir();
  try {
    await writeConfig(home.path, {
      provider: "groq",
      providers: { groq: { base_url: server.url } },
      model: "kimi-k2",
    });
    const r = await runNavi([], {
      home: home.path,
      env: { GROQ_API_KEY: "gsk-models-1" },
      stdin: "/model\n/exit\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /model: kimi-k2 \(provider groq\)\n\* kimi-k2\n {2}llama-3\.3-70b\n/);
  } finally {
    await server.close();
  }
});

Deno.test("a NaviApp keeps every preset's key variable from child processes", async () => {
  Deno.env.set("DEEPSEEK_API_KEY", "ds-app-secret-12345");
  try {
    await using t = await testApp({});
    assertEquals("DEEPSEEK_API_KEY" in t.app.childEnv(), false);
    assertEquals(t.app.secrets.redact("x ds-app-secret-12345 y"), "x [redacted] y");
  } finally {
    Deno.env.delete("DEEPSEEK_API_KEY");
  }
});
