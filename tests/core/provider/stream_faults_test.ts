// Model stream faults at the engine: a stream that ends early or breaks off is an error, an abort at any
// moment of a response is an abort; what arrived is kept marked, no tool call of an incomplete response runs.
import { join } from "node:path";
import {
  type AgentEvents,
  ApiError,
  CUT_MARKERS,
  openConversation,
  type TurnResult,
} from "../../../core/mod.ts";
import { sseEvents, startLlmServer, type Step } from "../../support/llm_server.ts";
import { assertValidSession } from "../../support/session_check.ts";
import { assert, assertEquals, assertMatch, testApp, until } from "../../helpers.ts";

const KEY = "sk-stream-faults-SECRET-42";

async function setup(script: Step[], events?: AgentEvents) {
  const server = startLlmServer(script);
  const t = await testApp({
    providers: { test: { base_url: server.url, api_key: KEY } },
    model: "m",
    approval: { mode: "auto" },
  });
  const convo = openConversation(t.app, { events });
  const session = () => Deno.readTextFileSync(convo.agent.session.file);
  return {
    server,
    app: t.app,
    ws: t.ws,
    convo,
    session,
    async [Symbol.asyncDispose]() {
      await server.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

async function failure(run: Promise<TurnResult>): Promise<ApiError> {
  const error = await run.then(() => undefined, (e) => e);
  assert(error instanceof ApiError, `expected an ApiError, got ${error}`);
  return error;
}

const touch = (file: string) => ({ name: "bash", arguments: JSON.stringify({ command: `touch ${file}` }) });

Deno.test("a stream that ends without finish_reason is an error; the partial answer is kept marked as cut", async () => {
  await using t = await setup([{ text: "The answer is forty", fault: { cutAfter: 3 } }]);
  const error = await failure(t.convo.agent.run("question", new AbortController().signal));
  assertMatch(
    error.message,
    /^the response stream from test \(http:\/\/127\.0\.0\.1:\d+\/v1\) ended before the answer was complete \(no finish_reason\)$/,
  );
  const messages = assertValidSession(t.session(), [KEY]);
  assertEquals(messages.at(-1), {
    role: "assistant",
    content: `The answer is \n\n${CUT_MARKERS.cut}`,
  });
});

Deno.test("a stream that ended with finish_reason and then closed is complete without data: [DONE]", async () => {
  await using t = await setup([{ text: "Looks complete", fault: { omit: ["done"] } }]);
  const r = await t.convo.agent.run("question", new AbortController().signal);
  assertEquals(r.text, "Looks complete");
  assertEquals(r.usage.prompt_tokens, t.server.requests[0].usage!.prompt_tokens, "the usage chunk counted");
  assertEquals(assertValidSession(t.session(), [KEY]).at(-1), {
    role: "assistant",
    content: "Looks complete",
  });
});

Deno.test("data: [DONE] without any finish_reason is still an incomplete answer", async () => {
  await using t = await setup([{ text: "Half", fault: { omit: ["finish"] } }]);
  const error = await failure(t.convo.agent.run("question", new AbortController().signal));
  assertMatch(error.message, /ended before the answer was complete \(no finish_reason\)$/);
  assertEquals(assertValidSession(t.session(), [KEY]).at(-1)?.content, `Half\n\n${CUT_MARKERS.cut}`);
});

Deno.test("the last event is read without its blank line; a cut-off last line is a cut stream", async () => {
  const events = sseEvents({ text: "All there" });
  const finish = events.length - 3;
  const noBlank = events.join("").replace(/\n\n$/, "\n");
  await using t = await setup([
    { raw: noBlank },
    { raw: noBlank.replace(/\n$/, "") },
    { raw: events.slice(0, finish + 1).join("") + events[finish + 1].slice(0, 40) },
    { raw: events.slice(0, finish).join("") + events[finish].slice(0, 40) },
  ]);
  const signal = new AbortController().signal;
  assertEquals((await t.convo.agent.run("one", signal)).text, "All there", "data: [DONE] then one newline");
  assertEquals((await t.convo.agent.run("two", signal)).text, "All there", "data: [DONE] and no newline");
  const third = await t.convo.agent.run("three", signal);
  assertEquals(
    [third.text, third.usage.prompt_tokens],
    ["All there", 0],
    "finish came; the cut usage is dropped",
  );
  const error = await failure(t.convo.agent.run("four", signal));
  assertMatch(
    error.message,
    /ended before the answer was complete \(no finish_reason\)$/,
    "not a JSON error",
  );
});

Deno.test("a tool call from a stream that ended without finish_reason or [DONE] is never run", async () => {
  await using t = await setup([{
    toolCalls: [touch("ran.txt")],
    fault: { omit: ["finish", "usage", "done"] },
  }]);
  const error = await failure(t.convo.agent.run("touch it", new AbortController().signal));
  assertMatch(error.message, /no finish_reason/);
  assert(!(await Deno.stat(join(t.ws, "ran.txt")).catch(() => null)), "the tool call did not run");
  const messages = assertValidSession(t.session(), [KEY]);
  assertEquals(messages.at(-1), {
    role: "assistant",
    content: CUT_MARKERS.cut.replace("]", "; 1 tool call(s) in it were not run]"),
  });
  assertEquals(t.server.requests.length, 1, "nothing is sent after a cut response");
});

Deno.test("a stream that breaks off mid tool call is one error line; no tool call runs", async () => {
  await using t = await setup([{
    text: "Let me",
    toolCalls: [touch("ran.txt")],
    fault: { cutAfter: 5, then: "reset" },
  }]);
  const error = await failure(t.convo.agent.run("touch it", new AbortController().signal));
  assertMatch(error.message, /^the response stream from test \(.*\) broke off: [^\n]+$/);
  assert(!(await Deno.stat(join(t.ws, "ran.txt")).catch(() => null)), "the tool call did not run");
  assertMatch(String(assertValidSession(t.session(), [KEY]).at(-1)?.content), /^Let me\n\n\[the response/);
});

Deno.test("an abort after the headers, before any text, stores no answer and reports the abort", async () => {
  await using t = await setup([{ text: "never", fault: { cutAfter: 0, then: "hang" } }]);
  const controller = new AbortController();
  const run = t.convo.agent.run("wait", controller.signal);
  await until(() => t.server.requests[0]?.progress.hanging === true, 5000, "headers sent");
  controller.abort();
  const r = await run;
  assert(r.aborted);
  assertEquals(assertValidSession(t.session(), [KEY]).map((m) => m.role), ["system", "user"]);
});

Deno.test("an abort mid-text keeps the partial answer marked as interrupted, never as the answer", async () => {
  let shown = "";
  await using t = await setup([{ text: "Half of the reply", fault: { cutAfter: 2, then: "hang" } }], {
    text: (delta) => void (shown += delta),
  });
  const controller = new AbortController();
  const run = t.convo.agent.run("wait", controller.signal);
  await until(() => t.server.requests[0]?.progress.hanging === true, 5000, "first text sent");
  await until(() => shown === "Half o", 5000, "the first text received");
  controller.abort();
  const r = await run;
  assert(r.aborted, "the turn reports the abort");
  assertEquals(r.text, "Half o");
  assertEquals(assertValidSession(t.session(), [KEY]).at(-1), {
    role: "assistant",
    content: `Half o\n\n${CUT_MARKERS.interrupted}`,
  });
});

Deno.test("an abort mid tool call runs no tool and leaves no unanswered call", async () => {
  await using t = await setup([{ toolCalls: [touch("ran.txt")], fault: { cutAfter: 3, then: "hang" } }]);
  // A streamed tool call warms its tool once its name arrived: the moment the client has the call begun.
  const bash = t.app.registry.get("bash")!;
  let named = false;
  t.app.registry.unregister("bash");
  t.app.registry.register({ ...bash, warm: () => void (named = true) });
  const controller = new AbortController();
  const run = t.convo.agent.run("touch it", controller.signal);
  await until(() => t.server.requests[0]?.progress.hanging === true, 5000, "tool call begun");
  await until(() => named, 5000, "the tool call's name received");
  controller.abort();
  assert((await run).aborted);
  assert(!(await Deno.stat(join(t.ws, "ran.txt")).catch(() => null)), "the tool call did not run");
  assertEquals(
    assertValidSession(t.session(), [KEY]).at(-1)?.content,
    CUT_MARKERS.interrupted.replace("]", "; 1 tool call(s) in it were not run]"),
  );
});

Deno.test("a complete answer with no text is stored as empty text, not null", async () => {
  await using t = await setup([{ text: "" }]);
  const r = await t.convo.agent.run("say nothing", new AbortController().signal);
  assertEquals(r.text, "");
  assertEquals(assertValidSession(t.session(), [KEY]).at(-1), { role: "assistant", content: "" });
});
