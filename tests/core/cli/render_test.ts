import { streamSink, terminalEvents } from "../../../core/cli/render.ts";
import { Secrets } from "../../../core/mod.ts";
import { assertEquals } from "../../helpers.ts";

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

Deno.test("parallel calls: a result line names its tool when another call started in between", () => {
  const s = sinks();
  const ev = terminalEvents({ mode: "repl", out: s.o, err: s.e });
  const a = { id: "a", name: "list_dir", arguments: "{}" };
  const b = { id: "b", name: "glob", arguments: '{"pattern":"*"}' };
  ev.toolStart!(a);
  ev.toolStart!(b);
  ev.toolEnd!(b, { result: { ok: true }, ms: 1 });
  ev.toolEnd!(a, { result: { ok: false, error: "boom" }, ms: 2 });
  assertEquals(
    s.out.join(""),
    '● list_dir\n● glob pattern="*"\n  ⎿ ok (1 ms)\n  ⎿ list_dir: error: boom (2 ms)\n',
  );
});

Deno.test("a stream sink redacts known secrets", () => {
  const secrets = new Secrets();
  secrets.add("sk-secret-value-1234");
  const chunks: Uint8Array[] = [];
  const sink = streamSink({ writeSync: (p) => (chunks.push(p.slice()), p.length) }, secrets);
  sink.write("key is sk-secret-value-1234!");
  assertEquals(new TextDecoder().decode(chunks[0]), "key is [redacted]!");
});
