// `navi -p --output-format stream-json` as a program sees it: every line valid against the schema in docs/,
// readable by a parser written for Claude Code's stream, secrets redacted and no control byte on stdout.
import { join } from "node:path";
import { startLlmServer, type Step } from "../../../support/llm_server.ts";
import { readAsClaude, validLines } from "../../../support/stream_json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  keyedLlmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../../helpers.ts";

const KEY = "sk-stream-json-SECRET-0123456789";

type Line = Record<string, unknown>;
const ofType = (lines: Line[], type: string) => lines.filter((l) => l.type === type);

Deno.test("a multi-tool task: init, assistant and user messages in Claude's shapes, a result; every line valid", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "app.ts"), "export const x = 1; // FIXME\n");
  const server = startLlmServer([
    {
      text: "Looking.",
      toolCalls: [
        { id: "r1", name: "read_file", arguments: '{"path":"app.ts"}' },
        { id: "g1", name: "grep", arguments: '{"pattern":"FIXME"}' },
      ],
    },
    {
      toolCalls: [{
        id: "e1",
        name: "edit_file",
        arguments: '{"path":"app.ts","old_string":"1","new_string":"2"}',
      }],
    },
    { toolCalls: [{ id: "b1", name: "bash", arguments: '{"command":"cat app.ts; exit 3"}' }] },
    { text: "Changed x to 2." },
  ]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url, { prices: { m: { input: 1, output: 2 } } }));
    const r = await runNavi(
      ["-p", "fix the FIXME", "--output-format", "stream-json", "--approval", "auto"],
      { home: home.path, cwd: ws.path, env: { TEST_LLM_KEY: KEY } },
    );
    assertEquals(r.code, 0, r.stderr);
    const lines = await validLines(r.stdout);
    assertEquals(lines[0].type, "system");
    assertEquals([lines[0].subtype, lines[0].version, lines[0].cwd], ["init", 1, ws.path]);
    assertEquals(lines.at(-1)!.type, "result");
    const run = readAsClaude(r.stdout);
    assertEquals(run.model, "m");
    assert(run.tools.includes("read_file") && run.tools.includes("bash"), run.tools.join(" "));
    assertEquals(run.texts, ["Looking.", "Changed x to 2."]);
    assertEquals(run.toolUses.map((u) => u.name), ["read_file", "grep", "edit_file", "bash"]);
    assertEquals(run.toolUses[2].input, { path: "app.ts", old_string: "1", new_string: "2" });
    // read_file and grep are read-only and run together: their results arrive in the order they finish.
    const byId = Object.fromEntries(run.toolResults.map((t) => [t.toolUseId, t]));
    assertEquals(run.toolResults.map((t) => t.toolUseId).sort(), ["b1", "e1", "g1", "r1"]);
    assertEquals(run.toolResults.slice(2).map((t) => t.toolUseId), ["e1", "b1"]);
    assertEquals(["r1", "g1", "e1", "b1"].map((id) => byId[id].isError), [false, false, false, true]);
    const sent =
      (server.requests[3].body.messages as { role: string; tool_call_id: string; content: string }[])
        .filter((m) => m.role === "tool");
    for (const m of sent) assertEquals(byId[m.tool_call_id].content, m.content, "as the model got it");
    assertEquals(run.results.length, 1);
    const [res] = run.results;
    assertEquals([res.subtype, res.isError, res.result, res.numTurns], [
      "success",
      false,
      "Changed x to 2.",
      4,
    ]);
    const prompt = server.requests.reduce((n, q) => n + q.usage!.prompt_tokens, 0);
    const cached = server.requests.reduce((n, q) => n + q.usage!.prompt_tokens_details.cached_tokens, 0);
    const out = server.requests.reduce((n, q) => n + q.usage!.completion_tokens, 0);
    assertEquals([res.inputTokens, res.outputTokens], [prompt - cached, out]);
    assertEquals(res.cost, Number(((prompt * 1 + out * 2) / 1e6).toFixed(6)));
    assertEquals(ofType(lines, "navi_approval").map((l) => [l.tool_name, l.how]), [
      ["edit_file", "auto"],
      ["bash", "auto"],
    ]);
    assertEquals(ofType(lines, "navi_cache").length, 4);
    assertEquals(await Deno.readTextFile(join(ws.path, "app.ts")), "export const x = 2; // FIXME\n");
    assertEquals(new Set(lines.map((l) => l.session_id)).size, 1);
  } finally {
    await server.close();
  }
});

/** Answers each user message with `answer <n>: <its text>`. */
function echoScript(): (i: number, body: Record<string, unknown>) => Step {
  return (_i, body) => {
    const msgs = body.messages as { role: string; content: unknown }[];
    const users = msgs.filter((m) => m.role === "user" && typeof m.content === "string");
    return { text: `answer ${users.length}: ${users.at(-1)!.content}` };
  };
}

const userLine = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content } });

Deno.test("--input-format stream-json answers two messages in turn in one session, each with a result", async () => {
  await using home = await tempDir();
  const server = startLlmServer(echoScript());
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const stdin = [userLine("first question"), userLine([{ type: "text", text: "second question" }])].join(
      "\n",
    );
    const r = await runNavi(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
      stdin: stdin + "\n",
    });
    assertEquals(r.code, 0, r.stderr);
    const lines = await validLines(r.stdout);
    assertEquals(ofType(lines, "system").length, 1, "one init for the run");
    const run = readAsClaude(r.stdout);
    assertEquals(run.results.map((x) => x.result), ["answer 1: first question", "answer 2: second question"]);
    assertEquals(run.results.map((x) => x.numTurns), [1, 2], "counts are cumulative over the run");
    assertEquals(server.requests.length, 2);
    const second = server.requests[1].body.messages as { role: string; content: string }[];
    assertEquals(second.slice(-3).map((m) => m.content), [
      "first question",
      "answer 1: first question",
      "second question",
    ]);
    assert(await Deno.stat(join(home.path, "sessions", `${run.sessionId}.jsonl`)));
  } finally {
    await server.close();
  }
});

Deno.test("a bad input line is one stderr line and a navi_input_error; the next message is still answered", async () => {
  await using home = await tempDir();
  const server = startLlmServer(echoScript());
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const stdin = ["{not json", JSON.stringify({ type: "control_request" }), userLine("still here")].join(
      "\n",
    );
    const r = await runNavi(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
      stdin,
    });
    assertEquals(r.code, 1, "a refused line makes the run fail");
    const lines = await validLines(r.stdout);
    assertEquals(ofType(lines, "navi_input_error").map((l) => [l.line, l.error]), [
      [1, "not valid JSON"],
      [2, 'messages of type "control_request" are not supported (user)'],
    ]);
    assertEquals(
      r.stderr,
      [
        "navi: stdin line 1: not valid JSON; skipped",
        'navi: stdin line 2: messages of type "control_request" are not supported (user); skipped',
        "",
      ].join("\n"),
    );
    assertEquals(readAsClaude(r.stdout).results.map((x) => x.result), ["answer 1: still here"]);
  } finally {
    await server.close();
  }
});

Deno.test("partial messages: text deltas add up to the answer; secrets redacted across deltas; no control byte on stdout", async () => {
  await using home = await tempDir();
  const hostile = `key ${KEY} then \x1b]52;c;AAAA\x07 and \x9b2J done`;
  const server = startLlmServer([
    { toolCalls: [{ id: "b1", name: "bash", arguments: `{"command":"echo ${KEY}"}` }] },
    { text: hostile },
  ]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(
      ["-p", "go", "--output-format", "stream-json", "--include-partial-messages", "--approval", "auto"],
      { home: home.path, env: { TEST_LLM_KEY: KEY } },
    );
    assertEquals(r.code, 0, r.stderr);
    const lines = await validLines(r.stdout);
    assert(!r.stdout.includes(KEY), "the key appears nowhere on stdout");
    // deno-lint-ignore no-control-regex -- the point: no raw control byte but the newlines between lines
    assertEquals(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(r.stdout), false, "control bytes are escaped");
    const run = readAsClaude(r.stdout);
    const shown = hostile.replace(KEY, "[redacted]");
    assertEquals(run.deltas, shown);
    assertEquals(run.results[0].result, shown);
    const events = ofType(lines, "stream_event").map((l) => (l.event as { type: string }).type);
    assertEquals(
      events.slice(0, 3),
      ["message_start", "message_delta", "message_stop"],
      "the tool-call response",
    );
    assertEquals(events.slice(3, 5), ["message_start", "content_block_start"]);
    assertEquals(events.slice(-3), ["content_block_stop", "message_delta", "message_stop"]);
    assertMatch(String(ofType(lines, "navi_tool_output")[0]?.text), /^\[redacted\]/);
  } finally {
    await server.close();
  }
});

Deno.test("an API error ends in a result with is_error and the message, exit status 1", async () => {
  await using home = await tempDir();
  const server = startLlmServer(() => ({ status: 404, message: "model m does not exist" }));
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "hi", "--output-format", "stream-json"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
    });
    assertEquals(r.code, 1);
    const lines = await validLines(r.stdout);
    const result = lines.at(-1)!;
    assertEquals([result.subtype, result.is_error], ["error_during_execution", true]);
    assertMatch(String((result.errors as string[])[0]), /model m does not exist/);
  } finally {
    await server.close();
  }
});

Deno.test("the stream-json options go together: partial messages without stream-json output is refused", async () => {
  await using home = await tempDir();
  const r = await runNavi(["-p", "hi", "--include-partial-messages"], { home: home.path });
  assertEquals(r.code, 1);
  assertMatch(r.stderr, /--include-partial-messages needs --output-format stream-json/);
});

Deno.test("a /command line in the input stream expands as with -p", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.mkdir(join(ws.path, ".navi/commands"), { recursive: true });
  await Deno.writeTextFile(join(ws.path, ".navi/commands/shout.md"), "Say $ARGUMENTS loudly.\n");
  const server = startLlmServer(echoScript());
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], {
      home: home.path,
      cwd: ws.path,
      env: { TEST_LLM_KEY: KEY },
      stdin: userLine("/shout hello") + "\n",
    });
    assertEquals(r.code, 0, r.stderr);
    await validLines(r.stdout);
    assertEquals(readAsClaude(r.stdout).results[0].result, "answer 1: Say hello loudly.");
  } finally {
    await server.close();
  }
});

Deno.test("todo_write shows in the stream as navi_plan lines, valid against the schema", async () => {
  await using home = await tempDir();
  const server = startLlmServer([
    {
      toolCalls: [{
        name: "todo_write",
        arguments: JSON.stringify({
          todos: [{ content: "a", status: "completed" }, { content: "b", status: "pending" }],
        }),
      }],
    },
    { text: "done" },
  ]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const r = await runNavi(["-p", "plan", "--output-format", "stream-json"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
    });
    assertEquals(r.code, 0, r.stderr);
    const plans = ofType(await validLines(r.stdout), "navi_plan");
    assertEquals(plans.map((p) => p.items), [[{ content: "a", status: "completed" }, {
      content: "b",
      status: "pending",
    }]]);
  } finally {
    await server.close();
  }
});
