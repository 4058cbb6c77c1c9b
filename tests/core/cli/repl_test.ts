import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { rawField } from "../../support/raw_json.ts";
import { assertEquals, assertMatch, llmConfig, runNavi, tempDir, writeConfig } from "../../helpers.ts";

Deno.test("the REPL reads piped prompts and commands until /exit", async () => {
  await using home = await tempDir();
  const server = startLlmServer([
    { toolCalls: [{ name: "bash", arguments: '{"command":"echo live-output"}' }] },
    { text: "It printed live-output." },
  ]);
  try {
    await writeConfig(home.path, {
      providers: { local: { base_url: server.url, api_key: "k" } },
      model: "m",
      approval: "auto",
    });
    const r = await runNavi([], {
      home: home.path,
      stdin:
        "/tools\nrun echo\n/model other-model\n/help\n/approval plan\n/clear\n/nope\n/exit\nnever sent\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /14 tools, fingerprint [0-9a-f]{8}/);
    assertMatch(r.stdout, /● bash command="echo live-output"\nlive-output\n {2}⎿ ok \(exit_code 0\)/);
    assertEquals(r.stdout.split("live-output\n").length - 1, 1, "bash output printed once");
    assertMatch(r.stdout, /It printed live-output\.\n/);
    assertMatch(r.stdout, /model set to other-model \(provider local\)/);
    assertMatch(r.stdout, /\/approval \[plan\|ask\|auto\]/);
    assertMatch(r.stdout, /approval mode: plan/);
    assertMatch(r.stdout, /new conversation \d{8}-\d{6}-[0-9a-f]{6}/);
    assertMatch(r.stdout, /unknown command \/nope; try \/help/);
    assertEquals(server.requests.length, 2, "nothing after /exit is sent");
  } finally {
    await server.close();
  }
});

Deno.test("the REPL exits at end of input", async () => {
  await using home = await tempDir();
  const r = await runNavi([], { home: home.path, stdin: "/help\n" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /\/exit\s+leave navi/);
});

Deno.test("/compact replaces the conversation by its summary in the same session; the summary request extends the last one", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{ text: "Hi there." }, { text: "User said hello; nothing else yet." }, {
    text: "Continuing.",
  }]);
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi([], { home: home.path, stdin: "hello\n/compact\nwhat next?\n/exit\n" });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /summary\nUser said hello; nothing else yet\.\ncompacted: about \d+ -> \d+ tokens/);
    const [first, compact, next] = server.requests;
    assertEquals(
      rawField(compact.raw, "tools"),
      rawField(first.raw, "tools"),
      "the summary request keeps the tools",
    );
    assertEquals(compact.body.tool_choice, "none");
    const sent = compact.body.messages as { role: string; content: string }[];
    assertEquals(
      sent.slice(0, -1),
      (first.body.messages as unknown[]).concat([{ role: "assistant", content: "Hi there." }]),
    );
    assertMatch(sent.at(-1)!.content, /^The conversation is about to be replaced by your summary/);
    const after = next.body.messages as { role: string; content: string }[];
    assertEquals(after.map((m) => m.role), ["system", "user", "user"]);
    assertMatch(after[1].content, /^<conversation-summary>\n[^\n]*\nUser said hello; nothing else yet\.\n/);
    assertEquals(after[2].content, "what next?");
    const sessions = [...Deno.readDirSync(join(home.path, "sessions"))].filter((e) =>
      e.name.endsWith(".jsonl")
    );
    assertEquals(sessions.length, 1, "one session: the old messages stay in its file");
    const file = Deno.readTextFileSync(join(home.path, "sessions", sessions[0].name));
    assertMatch(file, /"type":"rewrite","reason":"compaction"/);
    assertMatch(file, /"content":"hello"/);
  } finally {
    await server.close();
  }
});

Deno.test("/usage shows the session's tokens and cost from config prices; -p json carries them too", async () => {
  await using home = await tempDir();
  const server = startLlmServer((i) => ({ text: `answer ${i}` }));
  try {
    const prices = { m: { input: 2, cached_input: 1, output: 10 } };
    await writeConfig(home.path, {
      providers: { local: { base_url: server.url, api_key: "k" } },
      model: "m",
      prices,
    });
    const r = await runNavi([], { home: home.path, stdin: "one\ntwo\n/usage\n/exit\n" });
    assertEquals(r.code, 0, r.stderr);
    const sum = (upTo: number) => {
      const us = server.requests.slice(0, upTo).map((q) => q.usage!);
      const prompt = us.reduce((a, u) => a + u.prompt_tokens, 0);
      const cached = us.reduce((a, u) => a + u.prompt_tokens_details.cached_tokens, 0);
      const out = us.reduce((a, u) => a + u.completion_tokens, 0);
      return { prompt, cached, out, usd: ((prompt - cached) * 2 + cached * 1 + out * 10) / 1e6 };
    };
    const two = sum(2);
    const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`.replace("$", "\\$");
    assertMatch(
      r.stdout,
      new RegExp(
        `MODEL\\s+PROMPT\\s+CACHED\\s+OUTPUT\\s+COST\\nm\\s+${two.prompt}\\s+${two.cached}\\s+${two.out}\\s+${
          usd(two.usd)
        }\\n`,
      ),
    );
    const json = await runNavi(["--continue", "-p", "three", "--output-format", "json"], { home: home.path });
    const out = JSON.parse(json.stdout);
    const three = sum(3);
    const third = server.requests[2].usage!;
    const thirdCached = third.prompt_tokens_details.cached_tokens;
    const thirdUsd = ((third.prompt_tokens - thirdCached) * 2 + thirdCached + third.completion_tokens * 10) /
      1e6;
    assertEquals(out.cost_usd, Number(thirdUsd.toFixed(6)));
    assertEquals(out.session_usage, {
      prompt_tokens: three.prompt,
      completion_tokens: three.out,
      total_tokens: three.prompt + three.out,
      cached_tokens: three.cached,
      reasoning_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: Number(three.usd.toFixed(6)),
    });
  } finally {
    await server.close();
  }
});

Deno.test("resuming prints the id, age, message count and the last exchange", async () => {
  await using home = await tempDir();
  const server = startLlmServer((i) => ({ text: `answer ${i}` }));
  try {
    await writeConfig(home.path, {
      providers: { local: { base_url: server.url, api_key: "k" } },
      model: "m",
    });
    const first = await runNavi([], { home: home.path, stdin: "what is navi?\n" });
    assertEquals(first.code, 0, first.stderr);
    const again = await runNavi(["--continue"], { home: home.path, stdin: "/exit\n" });
    assertMatch(
      again.stdout,
      /^resumed \d{8}-\d{6}-[0-9a-f]{6} · just now · 2 messages\n› what is navi\?\n⎿ answer 0\n/,
    );
  } finally {
    await server.close();
  }
});
