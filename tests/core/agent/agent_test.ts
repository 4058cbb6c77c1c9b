import { join } from "node:path";
import { z } from "zod";
import { type AgentEvents, ApiError, defineTool, openConversation } from "../../../core/mod.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { assert, assertEquals, assertMatch, testApp, until } from "../../helpers.ts";

async function setup(
  script: Step[] | ((i: number) => Step),
  opts: { approval?: "plan" | "ask" | "auto"; maxSteps?: number; events?: AgentEvents } = {},
) {
  const server = startLlmServer(script);
  const t = await testApp({
    providers: { test: { base_url: server.url, api_key: "sk-agent-test-key" } },
    provider: "test",
    model: "test-model",
    max_steps: opts.maxSteps,
  });
  const convo = openConversation(t.app, { approval: opts.approval, events: opts.events });
  return {
    server,
    ws: t.ws,
    app: t.app,
    convo,
    async [Symbol.asyncDispose]() {
      await server.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

const toolMessages = (body: Record<string, unknown>) =>
  (body.messages as { role: string; tool_call_id?: string; content: string }[]).filter((m) =>
    m.role === "tool"
  );

Deno.test("text streams into one assistant message", async () => {
  await using t = await setup([{ text: "Hello there, friend." }]);
  const r = await t.convo.agent.run("hi", new AbortController().signal);
  assertEquals(r.text, "Hello there, friend.");
  const u = t.server.requests[0].usage!;
  assertEquals(r.usage, {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.total_tokens,
    cached_tokens: u.prompt_tokens_details.cached_tokens,
    reasoning_tokens: 0,
    cache_write_tokens: 0,
  }, "the turn's usage is what the server reported");
  const body = t.server.requests[0].body;
  assertEquals(body.model, "test-model");
  assertEquals(body.stream, true);
  assertEquals((body.messages as { role: string }[]).map((m) => m.role), ["system", "user"]);
  assertEquals(t.server.requests[0].headers.get("authorization"), "Bearer sk-agent-test-key");
});

Deno.test("a tool call with arguments split over chunks runs and its result goes back paired by id", async () => {
  await using t = await setup([
    { toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path": "notes.txt"}' }] },
    { text: "The notes say hi." },
  ]);
  await Deno.writeTextFile(join(t.ws, "notes.txt"), "hi\n");
  const r = await t.convo.agent.run("read notes", new AbortController().signal);
  assertEquals(r.text, "The notes say hi.");
  assertEquals(r.toolCalls, [{ name: "read_file", ok: true }]);
  const second = t.server.requests[1].body.messages as Record<string, unknown>[];
  const assistant = second[2] as { tool_calls: { id: string; function: { arguments: string } }[] };
  assertEquals(assistant.tool_calls[0].function.arguments, '{"path": "notes.txt"}');
  const tool = toolMessages(t.server.requests[1].body)[0];
  assertEquals(tool.tool_call_id, "c1");
  assertEquals(JSON.parse(tool.content).content, "     1\thi");
});

Deno.test("concurrency-safe calls run together, others one by one; results come back in call order", async () => {
  const begun = new Set<string>();
  await using t = await setup([
    {
      toolCalls: [
        { id: "a", name: "slow_read", arguments: '{"tag":"a"}' },
        { id: "b", name: "slow_read", arguments: '{"tag":"b"}' },
        { id: "c", name: "slow_write", arguments: '{"tag":"c"}' },
        { id: "d", name: "slow_write", arguments: '{"tag":"d"}' },
        { id: "e", name: "slow_read", arguments: '{"tag":"e"}' },
      ],
    },
    { text: "done" },
  ], { approval: "auto", events: { toolStart: (call) => void begun.add(call.id) } });
  const running = new Set<string>();
  const entered = new Set<string>();
  const overlaps: string[][] = [];
  const slow = (name: string, concurrencySafe: boolean) =>
    defineTool({
      name,
      description: "- Holds until every call begun with it is running too.",
      parameters: z.object({ tag: z.string() }),
      approval: concurrencySafe ? "read_only" : "write",
      concurrencySafe,
      handler: async ({ tag }) => {
        running.add(tag);
        entered.add(tag);
        overlaps.push([...running].sort());
        // Calls the agent began together all reach their handlers before any ends; a call begun alone runs alone.
        await until(() => [...begun].every((id) => entered.has(id)), 5000, "the calls begun with it");
        running.delete(tag);
        return { ok: true, tag };
      },
    });
  t.app.registry.register(slow("slow_read", true));
  t.app.registry.register(slow("slow_write", false));
  await t.convo.agent.run("go", new AbortController().signal);
  assertEquals(overlaps, [["a"], ["a", "b"], ["c"], ["d"], ["e"]], "a and b overlap; c, d and e run alone");
  const results = toolMessages(t.server.requests[1].body);
  assertEquals(results.map((m) => [m.tool_call_id, JSON.parse(m.content).tag]), [
    ["a", "a"],
    ["b", "b"],
    ["c", "c"],
    ["d", "d"],
    ["e", "e"],
  ]);
});

Deno.test("invalid JSON arguments and unknown tools go back to the model as errors", async () => {
  await using t = await setup([
    {
      toolCalls: [
        { id: "x", name: "read_file", arguments: '{"path": ' },
        { id: "y", name: "teleport", arguments: "{}" },
        { id: "z", name: "read_file", arguments: '{"path": 7}' },
      ],
    },
    { text: "sorry" },
  ]);
  const r = await t.convo.agent.run("go", new AbortController().signal);
  assertEquals(r.text, "sorry");
  const [x, y, z] = toolMessages(t.server.requests[1].body).map((m) => JSON.parse(m.content));
  assertMatch(x.error, /not valid JSON/);
  assertEquals(y, { ok: false, error: "Unknown tool: teleport" });
  assertMatch(z.error, /path: /);
});

Deno.test("a 429 is retried and then succeeds", async () => {
  await using t = await setup([
    { status: 429, message: "slow down", headers: { "retry-after-ms": "10" } },
    { text: "ok now" },
  ]);
  const r = await t.convo.agent.run("hi", new AbortController().signal);
  assertEquals(r.text, "ok now");
  assertEquals(t.server.requests.length, 2);
});

Deno.test("a 401 is one ApiError line with the status and message; the conversation stays", async () => {
  await using t = await setup([{ status: 401, message: "bad key sk-agent-test-key" }]);
  let error: unknown;
  await t.convo.agent.run("hi", new AbortController().signal).catch((e) => (error = e));
  assert(error instanceof ApiError);
  assertMatch(
    error.message,
    /^API error 401 from test \(http:\/\/127\.0\.0\.1:\d+\/v1\): bad key \[redacted\]$/,
  );
  assertEquals(t.server.requests.length, 1, "401 is not retried");
  assertEquals(t.convo.agent.session.messages.map((m) => m.role), ["system", "user"]);
});

Deno.test("a 500 is retried a bounded number of times, then reported with the status", async () => {
  await using t = await setup(() => ({
    status: 500,
    message: "upstream broke",
    headers: { "retry-after-ms": "5" },
  }));
  let error: unknown;
  await t.convo.agent.run("hi", new AbortController().signal).catch((e) => (error = e));
  assert(error instanceof ApiError);
  assertMatch(error.message, /^API error 500 from test .*: upstream broke$/);
  assertEquals(t.server.requests.length, 4, "the first try and 3 retries");
});

Deno.test("a context-length 400 says how to go on", async () => {
  await using t = await setup([{
    status: 400,
    message: "This model's maximum context length is 8192 tokens.",
  }]);
  let error: unknown;
  await t.convo.agent.run("hi", new AbortController().signal).catch((e) => (error = e));
  assert(error instanceof ApiError);
  assertMatch(
    error.message,
    /^API error 400 from test .*8192 tokens\. \(the conversation no longer fits the model: \/compact or \/clear makes room\)$/,
  );
});

Deno.test("a malformed stream is one ApiError line, not a crash", async () => {
  await using t = await setup([{ raw: "data: {not json\n\n" }]);
  let error: unknown;
  await t.convo.agent.run("hi", new AbortController().signal).catch((e) => (error = e));
  assert(error instanceof ApiError, String(error));
  assertMatch(error.message, /^bad response from test /);
});

Deno.test("tool results that contain a known secret are redacted before the model and the session see them", async () => {
  await using t = await setup([
    { toolCalls: [{ id: "r", name: "read_file", arguments: '{"path":"leak.txt"}' }] },
    { text: "ok" },
  ]);
  await Deno.writeTextFile(join(t.ws, "leak.txt"), "key=sk-agent-test-key\n");
  await t.convo.agent.run("read", new AbortController().signal);
  const tool = toolMessages(t.server.requests[1].body)[0].content;
  assert(!tool.includes("sk-agent-test-key") && tool.includes("[redacted]"), tool);
  assert(!Deno.readTextFileSync(t.convo.agent.session.file).includes("sk-agent-test-key"));
});

Deno.test("ask mode without a terminal refuses write tools with the documented error", async () => {
  await using t = await setup([
    { toolCalls: [{ id: "w", name: "write_file", arguments: '{"path": "x.txt", "content": "x"}' }] },
    { text: "could not write" },
  ]);
  const r = await t.convo.agent.run("write", new AbortController().signal);
  assertEquals(r.text, "could not write");
  const msg = JSON.parse(toolMessages(t.server.requests[1].body)[0].content);
  assertEquals(msg, {
    ok: false,
    error: "Not approved: write_file needs approval; rerun with --approval auto or allow it in config",
  });
  assert(!(await Deno.stat(join(t.ws, "x.txt")).catch(() => null)));
});

Deno.test("an image result is injected as a user message after the tool messages", async () => {
  await using t = await setup([
    { toolCalls: [{ id: "i", name: "read_file", arguments: '{"path": "p.png"}' }] },
    { text: "a picture" },
  ]);
  await Deno.writeFile(join(t.ws, "p.png"), new Uint8Array([137, 80, 78, 71]));
  await t.convo.agent.run("look", new AbortController().signal);
  const msgs = t.server.requests[1].body.messages as { role: string; content: unknown }[];
  assertEquals(msgs.map((m) => m.role), ["system", "user", "assistant", "tool", "user"]);
  assert(!String(msgs[3].content).includes("base64"), "no image data in the tool message");
  const parts = msgs[4].content as { type: string; image_url?: { url: string } }[];
  assertMatch(parts[1].image_url!.url, /^data:image\/png;base64,/);
});

Deno.test("the step limit stops a model that never stops calling tools", async () => {
  await using t = await setup(() => ({ toolCalls: [{ name: "list_dir", arguments: "{}" }] }) as never, {
    maxSteps: 3,
  });
  const r = await t.convo.agent.run("loop", new AbortController().signal);
  assert(r.stoppedAtLimit);
  assertEquals(t.server.requests.length, 3);
});

Deno.test("an abort during a request keeps the conversation consistent", async () => {
  await using t = await setup([{ hang: true }]);
  const controller = new AbortController();
  const run = t.convo.agent.run("wait", controller.signal);
  await until(() => t.server.requests.length === 1, 5000, "the request sent");
  controller.abort();
  const r = await run;
  assert(r.aborted);
  assertEquals(t.convo.agent.session.messages.at(-1)?.role, "user");
});

Deno.test("a streamed tool call warms its tool (a plugin starts its worker) only when the tool was offered", async () => {
  await using t = await setup([
    { toolCalls: [{ name: "warm_ro", arguments: "{}" }, { name: "warm_cmd", arguments: "{}" }] },
    { text: "done" },
  ], { approval: "plan" });
  const warmed: string[] = [];
  for (const [name, approval] of [["warm_ro", "read_only"], ["warm_cmd", "command"]] as const) {
    const tool = defineTool({
      name,
      description: `- ${name}`,
      parameters: z.object({}),
      approval,
      handler: () => ({ ok: true }),
    });
    t.app.registry.register({ ...tool, warm: () => warmed.push(name) });
  }
  await t.convo.agent.run("go", new AbortController().signal);
  assertEquals(warmed, ["warm_ro"], "plan mode does not offer the command tool, so it is not warmed");
});

Deno.test("the response assembler names a tool call as soon as its arguments start", async () => {
  const { ResponseAssembler, emptyUsage } = await import("../../../core/mod.ts");
  const names: string[] = [];
  const r = new ResponseAssembler(emptyUsage(), { onToolName: (n) => names.push(n) });
  const piece = (fn: Record<string, string>) => ({
    choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: fn }] } }],
  });
  r.add(piece({ name: "word_" }) as never);
  r.add(piece({ name: "count" }) as never);
  assertEquals(names, []);
  r.add(piece({ arguments: '{"te' }) as never);
  r.add(piece({ arguments: 'xt":"a"}' }) as never);
  assertEquals(names, ["word_count"]);
});

Deno.test("todo_write records the list in the session and announces it as a plan event; turns end with a wait event", async () => {
  const plans: unknown[] = [];
  const waits: unknown[] = [];
  const server = startLlmServer([
    {
      toolCalls: [{
        name: "todo_write",
        arguments: JSON.stringify({ todos: [{ content: "  read   the code ", status: "in_progress" }] }),
      }],
    },
    { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "true" }) }] },
    { text: "done" },
  ]);
  await using t = await testApp({ providers: { p: { base_url: server.url, api_key: "k" } }, model: "m" });
  const asked: string[] = [];
  const convo = openConversation(t.app, {
    approval: "ask",
    ask: (q) => (asked.push(q.tool), Promise.resolve("no")),
    events: { plan: (items) => plans.push(items), waitingForUser: (w) => waits.push(w) },
  });
  try {
    await convo.agent.run("plan it", new AbortController().signal);
    assertEquals(plans, [[{ content: "read the code", status: "in_progress" }]]);
    assertEquals(convo.agent.session.todos, [{ content: "read the code", status: "in_progress" }]);
    assertEquals(asked, ["bash"]);
    assertEquals(waits.length, 2);
    assertEquals(waits[0], { reason: "approval", tool: "bash", summary: 'command="true"' });
    assertEquals((waits[1] as { reason: string; aborted: boolean }).reason, "turn_end");
    assertEquals((waits[1] as { aborted: boolean }).aborted, false);
    assert(typeof (waits[1] as { ms: number }).ms === "number");
  } finally {
    await server.close();
  }
});

Deno.test("the events carry what a program needs: whole calls and usage, decisions, the tool message as sent, an image prompt", async () => {
  await using t = await setup([
    { toolCalls: [{ id: "w1", name: "write_file", arguments: '{"path":"a.txt","content":"x"}' }] },
    { toolCalls: [{ id: "b1", name: "bash", arguments: '{"command":"echo live sk-agent-test-key"}' }] },
    { text: "done" },
  ], { approval: "auto" });
  const heard: string[] = [];
  const convo = openConversation(t.app, {
    approval: "auto",
    events: {
      responseEnd: (info) =>
        heard.push(
          `end ${info.calls?.map((c) => `${c.id}:${c.name}`).join(",")} ${info.usage?.total_tokens}`,
        ),
      toolDecision: (call, d) => heard.push(`decided ${call.id} ${d.allowed} ${d.how}`),
      toolOutput: (chunk, call) => heard.push(`output ${call?.id} ${chunk.trim()}`),
      toolEnd: (call, { content }) => heard.push(`content ${call.id} ${content}`),
    },
  });
  const image = [{ type: "text", text: "look" }, {
    type: "image_url",
    image_url: { url: "data:image/png;base64,AA==" },
  }];
  const r = await convo.agent.run(image, new AbortController().signal);
  assertEquals(r.text, "done");
  const sent = t.server.requests[0].body.messages as { role: string; content: unknown }[];
  assertEquals(sent.at(-1), { role: "user", content: image });
  const usage = t.server.requests.map((q) => q.usage!.total_tokens);
  const [written, ran] = toolMessages(t.server.requests[2].body).map((m) => m.content);
  assertEquals(heard.slice(0, 3), [
    `end w1:write_file ${usage[0]}`,
    "decided w1 true auto",
    `content w1 ${written}`,
  ]);
  assertEquals(heard.slice(3, 5), [`end b1:bash ${usage[1]}`, "decided b1 true auto"]);
  assertMatch(heard[5], /^output b1 live/, "live output names its call (the front's sink redacts it)");
  assertEquals(heard[6], `content b1 ${ran}`);
  assertMatch(ran, /live \[redacted\]/, "the tool message as sent, secrets redacted");
  assertEquals(heard.at(-1), `end  ${usage[2]}`);
});
