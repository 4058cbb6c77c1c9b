// `"api": "responses"`: the Responses API behind the same agent loop, stateless (store: false, the whole input,
// encrypted reasoning carried back), with the tools discipline, retries, cut streams and Ctrl-C.
import { join } from "node:path";
import { z } from "zod";
import {
  ApiError,
  type Config,
  CUT_MARKERS,
  defineTool,
  openConversation,
  type RetryInfo,
} from "../../../core/mod.ts";
import { FakeClock } from "../../support/clock.ts";
import { rawField } from "../../support/raw_json.ts";
import { type ResponsesStep, startResponsesServer } from "../../support/responses_server.ts";
import { assertValidSession, onlySession } from "../../support/session_check.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  MAIN,
  tempDir,
  testApp,
  until,
  writeConfig,
} from "../../helpers.ts";

const KEY = "sk-responses-test-SECRET-7";

async function setup(script: ResponsesStep[], extra: Partial<Config> = {}) {
  const server = startResponsesServer(script);
  const t = await testApp({
    providers: { oa: { base_url: server.url, api_key: KEY, api: "responses", reasoning_effort: "medium" } },
    model: "m",
    approval: { mode: "auto" },
    ...extra,
  });
  const convo = openConversation(t.app, {});
  return {
    server,
    ws: t.ws,
    app: t.app,
    convo,
    session: () => Deno.readTextFileSync(convo.agent.session.file),
    input: (i: number) => server.requests[i].body.input as Record<string, unknown>[],
    async [Symbol.asyncDispose]() {
      await server.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

const read = (path: string) => ({ name: "read_file", arguments: JSON.stringify({ path }) });

Deno.test("a three-step tool task: stateless requests, the tools array byte-identical, encrypted reasoning carried back", async () => {
  await using t = await setup([
    { reasoning: "The notes first.", toolCalls: [read("notes.txt")] },
    { reasoning: "Now both files at once.", toolCalls: [read("a.txt"), read("b.txt")] },
    { text: "a says alpha, b says beta." },
  ]);
  for (const [f, text] of [["notes.txt", "read a and b"], ["a.txt", "alpha"], ["b.txt", "beta"]]) {
    await Deno.writeTextFile(join(t.ws, f), text);
  }
  const r = await t.convo.agent.run("follow the notes", new AbortController().signal);
  assertEquals(r.text, "a says alpha, b says beta.");
  assertEquals(r.toolCalls, [1, 2, 3].map(() => ({ name: "read_file", ok: true })));
  const { requests } = t.server;
  assertEquals(
    requests.map((q) => q.refused),
    [undefined, undefined, undefined],
    "OpenAI's rules for store: false",
  );
  for (const q of requests) {
    assertEquals(
      [q.body.store, q.body.include, q.body.stream, q.body.prompt_cache_key, q.body.reasoning],
      [false, ["reasoning.encrypted_content"], true, t.convo.agent.session.meta.id, {
        effort: "medium",
        summary: "auto",
      }],
    );
    assertEquals("previous_response_id" in q.body, false);
  }
  const tools = requests.map((q) => rawField(q.raw, "tools"));
  assertEquals(new Set(tools).size, 1, "the tools array is byte-identical while nothing changed");
  const first = (requests[0].body.tools as { type: string; name: string; strict: boolean }[])[0];
  assertEquals([first.type, typeof first.name, first.strict], ["function", "string", false]);
  for (const i of [0, 1]) {
    const now = t.input(i).map((x) => JSON.stringify(x));
    const next = t.input(i + 1).map((x) => JSON.stringify(x));
    assertEquals(
      next.slice(0, now.length),
      now,
      `request ${i + 2} repeats request ${i + 1}'s input unchanged`,
    );
  }
  const types = t.input(2).map((x) => x.type ?? x.role);
  assertEquals(types, [
    "system",
    "user",
    "reasoning",
    "function_call",
    "function_call_output",
    "reasoning",
    "function_call",
    "function_call",
    "function_call_output",
    "function_call_output",
  ]);
  const reasoning = t.input(1).find((x) => x.type === "reasoning")!;
  assertEquals(
    Object.keys(reasoning).sort(),
    ["encrypted_content", "summary", "type"],
    "no id: nothing is stored",
  );
  assertMatch(String(reasoning.encrypted_content), /^enc_0_/);
  const sent = requests.map((q) => q.usage!);
  const total = (f: (u: (typeof sent)[number]) => number) => sent.reduce((a, u) => a + f(u), 0);
  assertEquals(r.usage, {
    prompt_tokens: total((u) => u.prompt_tokens),
    completion_tokens: total((u) => u.completion_tokens + u.reasoning_tokens),
    total_tokens: total((u) => u.total_tokens + u.reasoning_tokens),
    cached_tokens: total((u) => u.prompt_tokens_details.cached_tokens),
    reasoning_tokens: total((u) => u.reasoning_tokens),
    cache_write_tokens: 0,
  });
  assert(r.usage.reasoning_tokens > 0 && r.usage.cached_tokens > 0, "reasoning and cached tokens counted");
  const messages = assertValidSession(t.session(), [KEY]) as Record<string, unknown>[];
  const kept = messages.find((m) => m._reasoning)!._reasoning as { text: string; api: string };
  assertEquals([kept.text, kept.api], ["The notes first.", "responses"]);
});

Deno.test("Responses: a stream cut before response.completed is an error; what arrived is kept marked, no call runs", async () => {
  await using t = await setup([{
    text: "Partial answ",
    toolCalls: [read("x.txt")],
    fault: { cutAfter: 12 },
  }]);
  const error = await t.convo.agent.run("q", new AbortController().signal).then(() => undefined, (e) => e);
  assert(error instanceof ApiError, `an ApiError, got ${error}`);
  assertMatch(
    error.message,
    /^the response stream from oa \(.*\) ended before the answer was complete \(no response\.completed\)$/,
  );
  const last = assertValidSession(t.session(), [KEY]).at(-1)!;
  assertMatch(
    String(last.content),
    /^Partial answ\n\n\[the response stream broke off: this answer is incomplete; 1 tool call/,
  );
  assertEquals(t.server.requests.length, 1, "nothing more is sent");
});

Deno.test("Responses: a 429 with retry-after is announced and retried after the wait it asks for", async () => {
  await using t = await setup([
    { status: 429, message: "rate limited", headers: { "retry-after": "1" } },
    { text: "after the wait" },
  ]);
  const clock = new FakeClock();
  const retries: RetryInfo[] = [];
  const convo = openConversation(t.app, { clock, events: { retry: (i) => retries.push(i) } });
  const run = convo.agent.run("q", new AbortController().signal);
  await until(() => clock.pending > 0, 5000, "the retry wait");
  assertEquals(retries.map((x) => x.message), ["rate limited (429), retrying in 1 s (retry 1 of 3)"]);
  assertEquals([t.server.requests.length, clock.nextDue], [1, 1000], "waiting the second asked for");
  clock.advance(1000);
  assertEquals((await run).text, "after the wait");
  assertEquals(t.server.requests.length, 2);
});

Deno.test("Responses: a deferred tool keeps the tools array byte-identical, is announced and runs through call_tool", async () => {
  const queue: ResponsesStep[] = [{ text: "hi" }];
  const server = startResponsesServer(() => queue.shift() ?? { text: "ok" });
  await using u = await testApp({
    providers: { oa: { base_url: server.url, api_key: KEY, api: "responses" } },
    model: "m",
    approval: { mode: "auto" },
    tools: { defer: "always" },
  });
  try {
    const convo = openConversation(u.app, {});
    const signal = new AbortController().signal;
    await convo.agent.run("hi", signal);
    u.app.registry.register(
      defineTool({
        name: "echo_late",
        description: "- echo_late: echoes its text.",
        parameters: z.object({ text: z.string() }),
        approval: "read_only",
        handler: ({ text }) => ({ ok: true, echo: `late: ${text}` }),
      }),
      { kind: "plugin", origin: "late.ts" },
    );
    queue.push(
      {
        toolCalls: [{
          name: "call_tool",
          arguments: JSON.stringify({ name: "echo_late", arguments: { text: "x" } }),
        }],
      },
      { text: "done" },
    );
    const r = await convo.agent.run("use it", signal);
    assertEquals(r.toolCalls, [{ name: "echo_late", ok: true }]);
    const tools = server.requests.map((q) => rawField(q.raw, "tools"));
    assertEquals(new Set(tools).size, 1, "the tools array did not change");
    const input = server.requests[1].body.input as { role?: string; content?: string }[];
    assert(input.some((x) => x.role === "user" && /<system-reminder>.*echo_late/s.test(String(x.content))));
    const output = (server.requests[2].body.input as { type?: string; output?: string }[]).at(-1)!;
    assertEquals(output.type, "function_call_output");
    assertMatch(String(output.output), /late: x/);
  } finally {
    await server.close();
  }
});

Deno.test("Responses: Ctrl-C (SIGINT) of navi -p mid-stream exits 130 and leaves a valid session", async () => {
  const server = startResponsesServer([{
    reasoning: "Thinking hard.",
    text: "Half of it",
    fault: { cutAfter: 17, then: "hang" },
  }]);
  await using home = await tempDir();
  try {
    await writeConfig(home.path, {
      providers: { oa: { base_url: server.url, api_key: "$TEST_LLM_KEY", api: "responses" } },
      model: "m",
    });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-worker-options", MAIN, "-p", "go"],
      cwd: home.path,
      env: { NAVI_HOME: home.path, NO_COLOR: "1", TEST_LLM_KEY: KEY },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = child.output();
    await until(() => server.requests[0]?.progress.hanging === true, 30_000, "the stream hangs mid-answer");
    // The server has sent the events; give the client a moment to read them from the socket.
    await new Promise((r) => setTimeout(r, 500));
    child.kill("SIGINT");
    const out = await output;
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 130, stderr);
    assertEquals(new TextDecoder().decode(out.stdout), "", "no partial answer on stdout");
    const messages = assertValidSession(await onlySession(home.path), [KEY]);
    assertEquals(messages.at(-1)!.content, `Half of it\n\n${CUT_MARKERS.interrupted}`);
  } finally {
    await server.close();
  }
});
