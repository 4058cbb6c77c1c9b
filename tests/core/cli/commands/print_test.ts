import { join } from "node:path";
import type { CacheUsage } from "../../../support/llm_cache.ts";
import { startLlmServer } from "../../../support/llm_server.ts";
import { rawField } from "../../../support/raw_json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  keyedLlmConfig,
  MAIN,
  runNavi,
  tempDir,
  writeConfig,
} from "../../../helpers.ts";

const KEY = "sk-oneshot-VERY-SECRET-0123456789";

async function allFiles(dir: string): Promise<string> {
  let text = "";
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    text += e.isDirectory ? await allFiles(p) : await Deno.readTextFile(p).catch(() => "");
  }
  return text;
}

Deno.test("navi -p reads, greps and answers; 3 requests with byte-identical tools; no key anywhere", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "app.ts"), "export function main() {}\n// FIXME: handle errors\n");
  const server = startLlmServer([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"app.ts"}' }], text: "Let me look." },
    { toolCalls: [{ name: "grep", arguments: '{"pattern":"FIXME"}' }] },
    { text: "There is one FIXME, in app.ts line 2." },
  ]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "find the fixmes"], {
      home: home.path,
      cwd: ws.path,
      env: { TEST_LLM_KEY: KEY },
    });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "There is one FIXME, in app.ts line 2.\n");
    assertMatch(r.stderr, /read_file path="app\.ts"/);
    assertMatch(r.stderr, /grep pattern="FIXME"/);
    assertEquals(server.requests.length, 3);
    const tools = server.requests.map((q) => rawField(q.raw, "tools"));
    assertEquals(tools[1], tools[0]);
    assertEquals(tools[2], tools[0]);
    for (let i = 1; i < 3; i++) {
      const prev = rawField(server.requests[i - 1].raw, "messages").slice(0, -1);
      assert(
        rawField(server.requests[i].raw, "messages").startsWith(prev),
        `request ${i} extends request ${i - 1}`,
      );
    }
    const grep = JSON.parse((server.requests[2].body.messages as { content: string }[]).at(-1)!.content);
    assertEquals(grep.matches, "app.ts:2:// FIXME: handle errors");
    const everything = r.stdout + r.stderr + await allFiles(home.path);
    assert(!everything.includes(KEY), "the api key appears nowhere");
  } finally {
    await server.close();
  }
});

Deno.test("navi -p --output-format json reports text, tool calls, usage and session id", async () => {
  await using home = await tempDir();
  const server = startLlmServer([
    { toolCalls: [{ name: "list_dir", arguments: "{}" }] },
    { text: "empty" },
  ]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "list", "--output-format", "json"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
    });
    assertEquals(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assertEquals(out.result, "empty");
    assertEquals(out.tool_calls, [{ name: "list_dir", ok: true }]);
    const sum = (f: (u: CacheUsage) => number) => server.requests.reduce((n, q) => n + f(q.usage!), 0);
    assertEquals(out.usage.total_tokens, sum((u) => u.total_tokens));
    assertEquals(out.usage.cached_tokens, sum((u) => u.prompt_tokens_details.cached_tokens));
    assert(out.usage.cached_tokens > 0, "the second request reuses the first one's prefix");
    assertEquals(
      out.cache_hit_ratio,
      Math.round(out.usage.cached_tokens / out.usage.prompt_tokens * 1e4) / 1e4,
    );
    assertEquals(out.cache_breaks, []);
    assert(await Deno.stat(join(home.path, "sessions", `${out.session_id}.jsonl`)));
  } finally {
    await server.close();
  }
});

Deno.test("piped stdin is appended to the prompt", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{ text: "summary" }]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "summarize"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
      stdin: "line one\n",
    });
    assertEquals(r.stdout, "summary\n");
    const user = (server.requests[0].body.messages as { role: string; content: string }[])[1];
    assertEquals(user.content, "summarize\n\nline one\n");
  } finally {
    await server.close();
  }
});

Deno.test("an API error prints one line and exits non-zero", async () => {
  await using home = await tempDir();
  const server = startLlmServer(() => ({ status: 404, message: "model m does not exist" }));
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "hi"], { home: home.path, env: { TEST_LLM_KEY: KEY } });
    assertEquals(r.code, 1);
    assertMatch(r.stderr, /^navi: API error 404 from local \(.*\): model m does not exist\n$/);
  } finally {
    await server.close();
  }
});

Deno.test("connection refused is retried with an announcement per retry, then one clear error line", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, keyedLlmConfig("http://127.0.0.1:9/v1"));
  const r = await runNavi(["-p", "hi"], { home: home.path, env: { TEST_LLM_KEY: KEY } });
  assertEquals(r.code, 1);
  const lines = r.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 4, r.stderr);
  lines.slice(0, 3).forEach((line, i) =>
    assertMatch(
      line,
      new RegExp(`^navi: cannot reach local, retrying in [\\d.]+ s \\(retry ${i + 1} of 3\\)$`),
    )
  );
  assertMatch(lines[3], /^navi: cannot reach local \(http:\/\/127\.0\.0\.1:9\/v1\): .+$/);
});

Deno.test("Ctrl-C (SIGINT) during a request ends -p with status 130 and a consistent session", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{ hang: true }]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "-p", "wait forever", "--output-format", "json"],
      cwd: home.path,
      env: { NAVI_HOME: home.path, NO_COLOR: "1", TEST_LLM_KEY: KEY },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const out = await child.output();
    assertEquals(out.code, 130);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    assertEquals(result.aborted, true);
    const lines = (await Deno.readTextFile(join(home.path, "sessions", `${result.session_id}.jsonl`))).trim()
      .split("\n");
    const messages = lines.map((l) => JSON.parse(l)).filter((r) => r.type === "message").map((r) =>
      r.message.role
    );
    assertEquals(messages, ["system", "user"], "the prompt is kept and no half answer is written");
  } finally {
    await server.close();
  }
});

Deno.test("without a provider in config, OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL are used; with none, a clear error", async () => {
  await using home = await tempDir();
  const none = await runNavi(["-p", "hi"], { home: home.path, env: { OPENAI_API_KEY: "" } });
  assertEquals(none.code, 1);
  assertMatch(
    none.stderr,
    /^navi: no provider configured: set OPENAI_API_KEY and OPENAI_MODEL, or add providers/,
  );
  assertMatch(none.stderr, /export OPENAI_API_KEY=/, "the variables way");
  assert(none.stderr.includes(join(home.path, "config.json")), "the config path");
  assertMatch(none.stderr, /"providers": \{ "openai"/, "a minimal example");
  const unknown = await runNavi(["-p", "hi", "--provider", "foo"], { home: home.path });
  assertEquals(unknown.code, 1);
  assertEquals(
    unknown.stderr,
    'navi: unknown provider "foo": config.json providers has no such entry (none is configured) and no preset ' +
      "has that name (navi providers lists openai, openrouter, groq, deepseek, mistral, xai, gemini, cerebras, " +
      "huggingface, ollama, llamacpp, lmstudio, vllm)\n",
  );
  const server = startLlmServer([{ text: "from env" }, { text: "from flag" }]);
  try {
    const r = await runNavi(["-p", "hi"], {
      home: home.path,
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url, OPENAI_MODEL: "env-model" },
    });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "from env\n");
    assertEquals(server.requests[0].body.model, "env-model");
    assertEquals(server.requests[0].headers.get("authorization"), `Bearer ${KEY}`);
    const flag = await runNavi(["-p", "hi", "--model", "flag-model"], {
      home: home.path,
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url, OPENAI_MODEL: "env-model" },
    });
    assertEquals(flag.stdout, "from flag\n");
    assertEquals(server.requests[1].body.model, "flag-model", "--model overrides");
  } finally {
    await server.close();
  }
});

Deno.test("-p without a prompt takes piped stdin as the prompt; with neither it says what is missing", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{ text: "summary" }]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p"], { home: home.path, env: { TEST_LLM_KEY: KEY }, stdin: "the log\n" });
    assertEquals([r.code, r.stdout], [0, "summary\n"], r.stderr);
    const user = (server.requests[0].body.messages as { role: string; content: string }[]).at(-1)!;
    assertEquals(user.content, "the log\n");
    const none = await runNavi(["-p"], { home: home.path, env: { TEST_LLM_KEY: KEY }, stdin: "" });
    assertEquals(none.code, 1);
    assertMatch(none.stderr, /-p needs a prompt/);
    assertEquals(server.requests.length, 1, "nothing was sent for an empty prompt");
  } finally {
    await server.close();
  }
});
