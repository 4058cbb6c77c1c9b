import { type Key, KeyDecoder } from "../../../core/cli/keys.ts";
import { assertEquals } from "../../helpers.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const decode = (...reads: string[]) => {
  const d = new KeyDecoder();
  const keys: Key[] = reads.flatMap((r) => d.feed(enc(r)));
  return [...keys, ...d.flush()];
};

Deno.test("typed text is joined; control keys, arrows and modifiers are named", () => {
  assertEquals(decode("hi\r"), [{ kind: "text", text: "hi" }, { kind: "key", name: "enter" }]);
  assertEquals(decode("\x03\x04\x7f\t"), [
    { kind: "key", name: "c", ctrl: true },
    { kind: "key", name: "d", ctrl: true },
    { kind: "key", name: "backspace" },
    { kind: "key", name: "tab" },
  ]);
  assertEquals(decode("\x1b[A\x1bOB\x1b[1;5C\x1b[3~\x1b[Z"), [
    { kind: "key", name: "up" },
    { kind: "key", name: "down" },
    { kind: "key", name: "right", ctrl: true },
    { kind: "key", name: "delete" },
    { kind: "key", name: "tab", shift: true },
  ]);
  assertEquals(decode("\x1b\r\x1bb"), [
    { kind: "key", name: "enter", alt: true },
    { kind: "key", name: "b", alt: true },
  ]);
});

Deno.test("a lone Esc waits for flush; sequences and UTF-8 split across reads are joined", () => {
  const d = new KeyDecoder();
  assertEquals(d.feed(enc("\x1b")), []);
  assertEquals(d.flush(), [{ kind: "key", name: "escape" }]);
  assertEquals(decode("\x1b[", "1;5D"), [{ kind: "key", name: "left", ctrl: true }]);
  const bytes = enc("é漢");
  const split = new KeyDecoder();
  assertEquals([
    ...split.feed(bytes.subarray(0, 1)),
    ...split.feed(bytes.subarray(1, 4)),
    ...split.feed(bytes.subarray(4)),
  ], [
    { kind: "text", text: "é" },
    { kind: "text", text: "漢" },
  ]);
});

Deno.test("a bracketed paste is one event with its newlines, even across reads and with escapes inside", () => {
  assertEquals(decode("a\x1b[200~line 1\r\nline 2\x1b[A\x1b[201~b"), [
    { kind: "text", text: "a" },
    { kind: "paste", text: "line 1\nline 2\x1b[A" },
    { kind: "text", text: "b" },
  ]);
  const big = "x".repeat(100_000);
  const d = new KeyDecoder();
  const keys = [
    ...d.feed(enc("\x1b[20")),
    ...d.feed(enc("0~" + big.slice(0, 60_000))),
    ...d.feed(enc(big.slice(60_000) + "\x1b[2")),
  ];
  assertEquals(keys, []);
  assertEquals(d.flush(), [], "flush does not end a paste");
  assertEquals(d.feed(enc("01~")), [{ kind: "paste", text: big }]);
});
