import { join } from "node:path";
import { listSessions, newestSessionIn, Secrets, Session, SessionError } from "../../../core/mod.ts";
import { FakeClock } from "../../support/clock.ts";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";

Deno.test("a session appends records and loads them back", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w", provider: "p", model: "m" });
  s.addMessage({ role: "system", content: "sys" });
  s.addMessage({ role: "user", content: "first prompt" });
  s.recordTools([{ type: "function", function: { name: "t", description: "- t", parameters: {} } }]);
  s.audit({ tool: "t", decision: "read_only", ms: 3, ok: true });
  const { session, tools, warnings } = Session.load(home.path, s.meta.id);
  assertEquals(warnings, []);
  assertEquals(session.messages, s.messages);
  assertEquals(tools?.[0].function.name, "t");
  assertEquals(session.meta, s.meta);
  const text = await Deno.readTextFile(s.file);
  assertMatch(text, /"type":"audit","at":"[^"]+","tool":"t","decision":"read_only"/);
  const mtime = (await Deno.stat(s.file)).mtime!.toISOString();
  assertEquals(listSessions(home.path)[0], {
    id: s.meta.id,
    created: s.meta.created,
    updated: mtime,
    cwd: "/w",
    messages: 1,
    first_prompt: "first prompt",
  });
});

Deno.test("a corrupt line is skipped with one warning; everything else loads", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" });
  s.addMessage({ role: "user", content: "a" });
  s.addMessage({ role: "assistant", content: "b" });
  await Deno.writeTextFile(s.file, '{"type":"message","message":{"role":"user","con', { append: true });
  const { session, warnings } = Session.load(home.path, s.meta.id);
  assertEquals(session.messages.map((m) => m.content), ["a", "b"]);
  assertEquals(warnings.length, 1);
  assertMatch(warnings[0], /line 4 is corrupt and skipped \(the last line was cut off mid-write/);
});

Deno.test("a missing session id is a clear error", async () => {
  await using home = await tempDir();
  let err: unknown;
  try {
    Session.load(home.path, "20990101-000000-abcdef");
  } catch (e) {
    err = e;
  }
  assert(err instanceof SessionError);
  assertMatch(err.message, /^no session with id 20990101-000000-abcdef/);
  let bad: unknown;
  try {
    Session.load(home.path, "../etc/passwd");
  } catch (e) {
    bad = e;
  }
  assert(bad instanceof SessionError);
});

Deno.test("sessions are listed newest first", async () => {
  await using home = await tempDir();
  const clock = new FakeClock();
  const a = Session.create(home.path, { cwd: "/a" }, { now: clock.now });
  a.addMessage({ role: "user", content: "a" });
  clock.advance(5);
  const b = Session.create(home.path, { cwd: "/b" }, { now: clock.now });
  b.addMessage({ role: "user", content: "b" });
  await Deno.writeTextFile(join(home.path, "sessions", "junk.jsonl"), "not json\n");
  assertEquals(listSessions(home.path).map((s) => s.id), [b.meta.id, a.meta.id]);
});

Deno.test("a session cut off mid tool call gets results for the unanswered calls", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" });
  s.addMessage({ role: "user", content: "go" });
  s.addMessage({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "a", type: "function", function: { name: "x", arguments: "{}" } }, {
      id: "b",
      type: "function",
      function: { name: "y", arguments: "{}" },
    }],
  });
  s.addMessage({ role: "tool", tool_call_id: "a", content: '{"ok":true}' });
  const { session } = Session.load(home.path, s.meta.id);
  assertEquals(session.completeToolCalls(), 1);
  assertEquals(session.messages.at(-1), {
    role: "tool",
    tool_call_id: "b",
    content: '{"ok":false,"error":"navi stopped before this tool call finished"}',
  });
  assertEquals(Session.load(home.path, s.meta.id).session.messages.length, 4, "the repair is persisted");
  assertEquals(session.completeToolCalls(), 0);
});

Deno.test("a new session's file is written with its first message after the preamble, not before", async () => {
  await using home = await tempDir();
  const preamble = [{ role: "system" as const, content: "sys" }, {
    role: "user" as const,
    content: "<rules/>",
  }];
  const s = Session.create(home.path, { cwd: "/w" }, { preamble });
  s.recordTools([]);
  assertEquals(s.messages, preamble);
  assert(!s.written && !(await Deno.stat(s.file).catch(() => null)), "no file yet");
  s.close();
  assertEquals(listSessions(home.path), [], "a start that sent nothing leaves nothing");
  const t = Session.create(home.path, { cwd: "/w" }, { preamble });
  t.addMessage({ role: "user", content: "hello" });
  assert(t.written);
  const { session } = Session.load(home.path, t.meta.id);
  assertEquals(session.messages, [...preamble, { role: "user", content: "hello" }]);
  assertMatch(
    await Deno.readTextFile(t.file),
    /^\{"type":"meta".*\n\{"type":"message".*"sys".*\n.*<rules\/>.*\n\{"type":"message".*"hello"/,
  );
});

Deno.test("the session used last in a directory is found: by its file's time, among those the caller accepts", async () => {
  await using home = await tempDir();
  const clock = new FakeClock();
  /** Set a session file's time, as if it was last written `at` ms after the epoch of the clock. */
  const touched = (file: string, at: number) => Deno.utimeSync(file, new Date(at), new Date(at));
  const a = Session.create(home.path, { cwd: "/a" }, { now: clock.now });
  a.addMessage({ role: "user", content: "first" });
  touched(a.file, clock.now());
  clock.advance(5000);
  const b = Session.create(home.path, { cwd: "/a" }, { now: clock.now });
  b.addMessage({ role: "system", content: "only a system prompt" });
  touched(b.file, clock.now());
  const other = Session.create(home.path, { cwd: "/other" }, { now: clock.now });
  other.addMessage({ role: "user", content: "elsewhere" });
  assertEquals(newestSessionIn(home.path, "/a"), b.meta.id);
  const talk = { accept: (ms: { role: string }[]) => ms.some((m) => m.role !== "system") };
  assertEquals(newestSessionIn(home.path, "/a", talk), a.meta.id, "the one with a conversation");
  clock.advance(5000);
  a.addMessage({ role: "assistant", content: "x".repeat(10_000) });
  touched(a.file, clock.now());
  assertEquals(newestSessionIn(home.path, "/a"), a.meta.id, "used last, though created first");
  assertEquals(newestSessionIn(home.path, "/nowhere"), undefined);
});

Deno.test("a torn last line is ended on open: the next record is not glued to it and survives the next load", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" });
  s.addMessage({ role: "user", content: "before the crash" });
  s.close();
  await Deno.writeTextFile(s.file, '{"type":"message","message":{"role":"assistant","cont', { append: true });
  const first = Session.load(home.path, s.meta.id);
  first.session.addMessage({ role: "user", content: "after the crash" });
  first.session.close();
  const again = Session.load(home.path, s.meta.id);
  again.session.close();
  assertEquals(again.session.messages.map((m) => m.content), ["before the crash", "after the crash"]);
  assertEquals(again.warnings, [`${s.file}: line 3 is corrupt and skipped`]);
  assert((await Deno.readTextFile(s.file)).endsWith('"after the crash"}}\n'));
});

Deno.test("records are redacted as whole lines: a secret in a message or an audit error never reaches the file", async () => {
  await using home = await tempDir();
  const secrets = new Secrets();
  secrets.add("sk-live-SESSION-secret-123");
  secrets.add('tok"with\\quotes-456');
  const s = Session.create(home.path, { cwd: "/w" }, { redact: (t) => secrets.redact(t) });
  s.addMessage({ role: "assistant", content: "the key is sk-live-SESSION-secret-123." });
  s.addMessage({
    role: "assistant",
    content: null,
    tool_calls: [{
      id: "a",
      type: "function",
      function: { name: "bash", arguments: '{"command":"curl -H \'x: tok\\"with\\\\quotes-456\'"}' },
    }],
  });
  s.audit({ tool: "bash", decision: "auto", ms: 1, ok: false, error: "401 for sk-live-SESSION-secret-123" });
  s.close();
  const text = await Deno.readTextFile(s.file);
  assert(!text.includes("sk-live-SESSION-secret-123"), text);
  assert(!text.includes("quotes-456"), text);
  assertEquals(text.match(/\[redacted\]/g)?.length, 3);
  assertEquals(
    s.messages[0].content,
    "the key is sk-live-SESSION-secret-123.",
    "the conversation itself is unchanged",
  );
});

Deno.test("checkpoints mark turns; the conversation at a checkpoint replays rewrites; a fork copies up to a turn", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" });
  s.addMessage({ role: "system", content: "sys" });
  assertEquals(s.checkpoint({ kind: "turn", prompt: "one" }).n, 1);
  s.addMessage({ role: "user", content: "one" });
  s.addMessage({ role: "assistant", content: "answer one" });
  s.rewrite({
    reason: "compaction",
    messages: [{ role: "system", content: "sys" }, { role: "user", content: "sum" }],
  });
  assertEquals(s.checkpoint({ kind: "turn", prompt: "two".repeat(100) }).prompt?.length, 200);
  s.addMessage({ role: "user", content: "two" });
  assertEquals(s.conversationAt(1).map((m) => m.content), ["sys"]);
  assertEquals(s.conversationAt(2).map((m) => m.content), ["sys", "sum"]);
  assertEquals(s.conversationAt(3).map((m) => m.content), ["sys", "sum", "two"], "no checkpoint 3: now");
  const original = await Deno.readTextFile(s.file);

  const fork = Session.fork(home.path, s.meta.id, { turn: 1 });
  try {
    assertEquals(fork.session.messages.map((m) => m.content), ["sys", "sum"]);
    assertEquals(fork.session.meta.forked_from, { id: s.meta.id, turn: 1 });
    assertEquals(fork.session.checkpoints.map((c) => c.n), [1]);
    assert(fork.session.meta.id !== s.meta.id);
  } finally {
    fork.session.close();
  }
  assertEquals(await Deno.readTextFile(s.file), original, "the original is only read");
  let err: unknown;
  try {
    Session.fork(home.path, s.meta.id, { turn: 7 });
  } catch (e) {
    err = e;
  }
  assert(err instanceof SessionError);
  assertMatch(err.message, /has turns 1 to 2; cannot fork at turn 7/);
  s.close();
});

Deno.test("the todo list is kept in the session and read back; a malformed record keeps only well-formed items", async () => {
  await using home = await tempDir();
  const s = Session.create(home.path, { cwd: "/w" });
  s.addMessage({ role: "user", content: "plan it" });
  s.recordTodos([{ content: "first", status: "completed" }, { content: "second", status: "pending" }]);
  s.recordTodos([{ content: "first", status: "completed" }, { content: "second", status: "in_progress" }]);
  s.close();
  const { session } = Session.load(home.path, s.meta.id);
  assertEquals(session.todos, [{ content: "first", status: "completed" }, {
    content: "second",
    status: "in_progress",
  }]);
  session.close();
  await Deno.writeTextFile(
    s.file,
    JSON.stringify({
      type: "todos",
      items: [{ content: "ok", status: "pending" }, null, 3, { content: 1 }, {
        content: "x",
        status: "done",
      }],
    }) + "\n",
    { append: true },
  );
  const again = Session.load(home.path, s.meta.id);
  assertEquals(again.warnings, []);
  assertEquals(again.session.todos, [{ content: "ok", status: "pending" }]);
  again.session.close();
});
