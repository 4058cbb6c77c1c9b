import { resultSummary, terminalEvents } from "../../../core/cli/printer.ts";
import { streamSink } from "../../../core/output/sink.ts";
import { Secrets } from "../../../core/mod.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import { assert, assertEquals, until } from "../../helpers.ts";

function sinks() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    o: { write: (t: string) => void out.push(t) },
    e: { write: (t: string) => void err.push(t) },
  };
}

Deno.test("print mode: activity on stderr, intermediate text on stderr, the answer left to the caller", () => {
  const s = sinks();
  const ev = terminalEvents({ mode: "print", out: s.o, err: s.e });
  ev.requestStart!(1);
  ev.text!("Looking.");
  ev.responseEnd!({ text: "Looking.", toolCalls: 1 });
  const call = { id: "a", name: "grep", arguments: '{"pattern":"x"}' };
  ev.toolStart!(call);
  ev.toolEnd!(call, { result: { ok: true, count: 2 }, ms: 5 });
  ev.text!("Final.");
  ev.responseEnd!({ text: "Final.", toolCalls: 0 });
  assertEquals(s.out, []);
  assertEquals(s.err.join(""), 'Looking.\n● grep pattern="x"\n  ⎿ ok (count 2) (5 ms)\n');
});

Deno.test("parallel calls: each result prints right under its call, as the calls end", async () => {
  const s = sinks();
  const ev = terminalEvents({ mode: "repl", out: s.o, err: s.e });
  const a = { id: "a", name: "list_dir", arguments: "{}" };
  const b = { id: "b", name: "glob", arguments: '{"pattern":"*"}' };
  ev.toolStart!(a);
  ev.toolStart!(b);
  await Promise.resolve();
  assertEquals(s.out, [], "nothing printed while both run");
  ev.toolEnd!(b, { result: { ok: true }, ms: 1 });
  ev.toolEnd!(a, { result: { ok: false, error: "boom" }, ms: 2 });
  assertEquals(
    s.out.join(""),
    '● glob pattern="*"\n  ⎿ ok (1 ms)\n● list_dir\n  ⎿ error: boom (2 ms)\n',
  );
  const c = { id: "c", name: "bash", arguments: '{"command":"ls"}' };
  ev.toolStart!(c);
  await Promise.resolve();
  ev.toolOutput!("a.txt\n");
  ev.toolEnd!(c, { result: { ok: true, exit_code: 0, output: "a.txt\n" }, ms: 1500 });
  assertEquals(
    s.out.join("").split("boom (2 ms)\n")[1],
    '● bash command="ls"\na.txt\n  ⎿ ok (exit_code 0) (1.5 s)\n',
  );
});

Deno.test("a result line says what the tool returned: short fields, sizes of long ones", () => {
  assertEquals(resultSummary({ ok: true, lines: 3, path: "notes.txt" }), "ok (lines 3, path notes.txt)");
  assertEquals(resultSummary({ ok: true, output: "Echo: hi" }), "ok: Echo: hi");
  assertEquals(
    resultSummary({ ok: true, path: "a.ts", content: "1\n2\n3\n", entries: [1, 2] }),
    "ok (path a.ts, content 3 lines, entries 2)",
  );
  assertEquals(resultSummary({ ok: true, output: "x\n" }, { streamed: true }), "ok");
  assertEquals(resultSummary({ ok: false, error: "no such file" }), "error: no such file");
});

Deno.test("a stream sink redacts known secrets", () => {
  const secrets = new Secrets();
  secrets.add("sk-secret-value-1234");
  const chunks: Uint8Array[] = [];
  const sink = streamSink({ writeSync: (p) => (chunks.push(p.slice()), p.length) }, secrets);
  sink.write("key is sk-secret-value-1234!");
  assertEquals(new TextDecoder().decode(chunks[0]), "key is [redacted]!");
});

function capture(secrets?: Secrets) {
  const chunks: string[] = [];
  const dec = new TextDecoder();
  const sink = streamSink({ writeSync: (p) => (chunks.push(dec.decode(p)), p.length) }, secrets);
  return { sink, text: () => chunks.join(""), chunks };
}

Deno.test("a secret split across streamed pieces is never written whole; a mere prefix comes out at flush", () => {
  const secrets = new Secrets();
  secrets.add("sk-secret-value-1234");
  const c = capture(secrets);
  for (const piece of ["the key: sk-sec", "ret-val", "ue-1234 and more ", "sk-se"]) c.sink.write(piece);
  assertEquals(c.text(), "the key: [redacted] and more ");
  c.sink.flush!();
  assertEquals(c.text(), "the key: [redacted] and more sk-se");
  assert(c.chunks.every((ch) => !ch.includes("sk-secret")), "no piece carries the secret's start either");
});

const HOSTILE = "a\x1b]52;c;ZXZpbA==\x07b\x1b]0;pwned\x07c\x1b[2J\x1b[H\x1b[5Ad\x1bce\x9b31mf\rg";
const HOSTILE_SHOWN =
  "a\\x1b]52;c;ZXZpbA==\\x07b\\x1b]0;pwned\\x07c\\x1b[2J\\x1b[H\\x1b[5Ad\\x1bce\\x9b31mf\\rg";

Deno.test("control sequences in model text, tool output, tool names and errors are shown escaped; navi's colours stay", () => {
  const c = capture();
  const style = makeStyle(true, { get: () => undefined });
  const ev = terminalEvents({ mode: "repl", out: c.sink, err: c.sink, style });
  ev.text!(HOSTILE);
  ev.responseEnd!({ text: HOSTILE, toolCalls: 1 });
  const call = { id: "a", name: "evil\x1b]0;t\x07", arguments: '{"x":"\x1b[2J"}' };
  ev.toolStart!(call);
  ev.toolOutput!("out\x1b]52;c;AAAA\x07\r\n");
  ev.toolEnd!(call, { result: { ok: false, error: "mcp says \x1b[2J\x1b]0;x\x07" }, ms: 3 });
  ev.notice!("server note \x1b[H");
  const shown = c.text();
  assertEquals(shown.split("\n")[0], HOSTILE_SHOWN);
  const ESC = "\x1b";
  const colours = new RegExp(`${ESC}\\[[0-9;]*m`, "g");
  const escapes: string[] = shown.match(colours) ?? [];
  assertEquals(shown.replace(colours, "").includes(ESC), false, "no raw ESC but colours");
  assert(!shown.includes("\x07") && !shown.includes("\x9b"), "no raw BEL or CSI");
  assertEquals(shown.replaceAll(`\r${ESC}[K`, "").includes("\r"), false, "no raw carriage return");
  assert(escapes.includes("\x1b[2m") && escapes.includes("\x1b[31m"), "navi's dim and red are intact");
  assert(shown.includes("evil\\x1b]0;t\\x07"), shown);
  assert(shown.includes("out\\x1b]52;c;AAAA\\x07\n"), shown);
  assert(shown.includes("mcp says \\x1b[2J\\x1b]0;x\\x07"), shown);
  assert(shown.includes("navi: server note \\x1b[H"), shown);
});

Deno.test("the sink itself lets only colours and navi's line clearing through", () => {
  const c = capture();
  c.sink.write("\x1b[33mwarn\x1b[39m\r\x1b[K\x1b]52;c;AA\x07\x1b[2J ok\r\n");
  assertEquals(c.text(), "\x1b[33mwarn\x1b[39m\r\x1b[K\\x1b]52;c;AA\\x07\\x1b[2J ok\n");
});

Deno.test("the status line shows a running tool's progress and elapsed time, and is cleared when it ends", async () => {
  const s = sinks();
  const ev = terminalEvents({ mode: "repl", out: s.o, err: s.e, spinner: true });
  const call = { id: "p", name: "mcp__srv__long", arguments: "{}" };
  ev.toolStart!(call);
  ev.toolProgress!(call, { progress: 3, total: 10, message: "working" });
  await until(
    () => s.out.join("").includes("mcp__srv__long 3/10 working · 0s · Esc to interrupt"),
    3000,
    "progress",
  );
  await until(() => s.out.join("").includes("working · 1s"), 3000, "elapsed seconds");
  ev.toolEnd!(call, { result: { ok: true }, ms: 1200 });
  const all = s.out.join("");
  assertEquals(all.startsWith("● mcp__srv__long\n"), true, all);
  assertEquals(all.endsWith("\r\x1b[K  ⎿ ok (1.2 s)\n"), true, "the status line is cleared, then the result");
});

Deno.test("the sink escapes OSC from any text but sends navi's own notification, cleaned and redacted", () => {
  const written: string[] = [];
  const dec = new TextDecoder();
  const stream = { writeSync: (p: Uint8Array) => (written.push(dec.decode(p)), p.length) };
  const secrets = new Secrets();
  secrets.add("sk-notify-secret-1234");
  const sink = streamSink(stream, secrets);
  sink.write("model says \x1b]9;fake\x07 and \x1b]777;notify;x;y\x07\n");
  sink.flush!();
  assertEquals(written.join(""), "model says \\x1b]9;fake\\x07 and \\x1b]777;notify;x;y\\x07\n");
  written.length = 0;
  sink.notify!("done\x07\x1b]52;c;ZXZpbA==\x07 sk-notify-secret-1234", { protocol: "osc9" });
  assertEquals(written.join(""), "\x1b]9;done ]52;c;ZXZpbA==  [redacted]\x07");
  written.length = 0;
  sink.notify!("waits", { protocol: "osc777", tmux: true });
  assertEquals(written.join(""), "\x1bPtmux;\x1b\x1b]777;notify;navi;waits\x07\x1b\\");
  written.length = 0;
  sink.notify!("kitty", { protocol: "osc99" });
  assertEquals(written.join(""), "\x1b]99;;kitty\x1b\\");
});
