// Cache telemetry and deferral in the REPL: the usage line under a real terminal, /tools and /cache, and /compact
// as a cold point that folds deferred tools.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { Pty } from "../../support/pty.ts";
import { rawField } from "../../support/raw_json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  MAIN,
  runNavi,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";

const PLUGIN =
  `export default (navi) => navi.registerTool({ name: "stamp", description: "- Stamps a text.", ` +
  `parameters: navi.z.object({ text: navi.z.string() }), approval: "read_only", handler: ({ text }) => ` +
  `({ ok: true, stamped: text }) });\n`;

Deno.test("REPL: a deferred plugin tool shows in /tools, /cache reports the session, /compact folds it", async () => {
  await using home = await tempDir();
  const server = startLlmServer((i) => {
    if (i === 0) {
      Deno.mkdirSync(join(home.path, "plugins"));
      Deno.writeTextFileSync(join(home.path, "plugins", "stamp.js"), PLUGIN);
    }
    return { text: i === 2 ? "The user asked twice." : `answer ${i}` };
  });
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: server.url, api_key: "k" } },
      model: "m",
      tools: { defer: "always" },
    });
    const r = await runNavi([], {
      home: home.path,
      stdin: "first\n/plugins reload\nsecond\n/tools\n/cache\n/compact\nthird\n/cache\n/exit\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(server.requests.length, 4);
    assertEquals(rawField(server.requests[1].raw, "tools"), rawField(server.requests[0].raw, "tools"));
    const reminder = (server.requests[1].body.messages as { content: string }[]).at(-1)!.content;
    assertMatch(
      reminder,
      /^<system-reminder>Your tools changed[\s\S]*\{"name":"stamp","description":"- Stamps a text\."/,
    );
    assertMatch(r.stdout, /stamp\s+read_only\s+plugin stamp\.js \(deferred: call_tool\)/);
    const cached = server.requests[1].usage!.prompt_tokens_details.cached_tokens;
    const prompt = server.requests[0].usage!.prompt_tokens + server.requests[1].usage!.prompt_tokens;
    assert(cached > 0);
    assertMatch(
      r.stdout,
      new RegExp(
        `2 requests · prompt ${prompt} tokens · cached ${cached} · hit ratio ${(cached / prompt).toFixed(3)}`,
      ),
    );
    assertMatch(
      r.stdout,
      /every request extended the previous one's prefix\ntools\.defer always · 1 deferred \(call_tool\): stamp/,
    );
    assertEquals(
      rawField(server.requests[2].raw, "tools"),
      rawField(server.requests[1].raw, "tools"),
      "the summary request keeps the array, so it extends the request before it",
    );
    const after = (server.requests[3].body.tools as { function: { name: string } }[]).map((t) =>
      t.function.name
    );
    assertEquals(
      after.at(-1),
      "stamp",
      "after /compact (a cold point) the array has the deferred tool folded in",
    );
    assertMatch(
      r.stdout,
      /4 requests · prompt \d+ tokens[^\n]*\nrequests that did not extend the previous request's prefix:\n {2}request 4: tools\[14\] \(plugin stamp\.js\)\n/,
      "the compaction is the one cache break",
    );
  } finally {
    await server.close();
  }
});

Deno.test("the usage line after each turn shows cached / prompt tokens (real terminal)", {
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await using home = await tempDir();
  const server = startLlmServer((i) => ({ text: `answer number ${i}` }));
  try {
    await writeConfig(home.path, { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" });
    await using pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
      env: { NAVI_HOME: home.path, NO_COLOR: "1" },
      cwd: home.path,
      width: 160,
      height: 40,
    });
    const screen = () => pty.screen({ all: true });
    await pty.waitFor("/help for commands", 20_000);
    await pty.type("hello");
    await pty.keys("Enter");
    await until(async () => /answer number 0\n.* out/.test(await screen()), 20_000, "the first usage line");
    await pty.type("again");
    await pty.keys("Enter");
    await until(async () => /answer number 1\n.* out/.test(await screen()), 20_000, "the second usage line");
    const [first, second] = server.requests.map((q) => q.usage!);
    const line = (u: typeof first) => {
      const c = u.prompt_tokens_details.cached_tokens;
      return `${u.prompt_tokens} in · cached ${c}/${u.prompt_tokens} (${
        Math.round((c / u.prompt_tokens) * 100)
      }%) · ${u.completion_tokens} out`;
    };
    const text = await screen();
    assert(second.prompt_tokens_details.cached_tokens > 0, "the second turn reuses the first one's prefix");
    assert(text.includes(`answer number 0\n${line(first)}`), text);
    assert(text.includes(`answer number 1\n${line(second)}`), text);
  } finally {
    await server.close();
  }
});
