import { escapeControls, terminalSafe } from "../../../core/output/mod.ts";
import { resultSummary } from "../../../core/cli/printer.ts";
import { assertEquals } from "../../helpers.ts";

Deno.test("bidirectional overrides and invisible format characters are shown escaped, in untrusted text and at the sink", () => {
  const trojan = 'if (user != "admin\u202e \u2066// check later\u2069 \u2066") {';
  const shown = 'if (user != "admin\\u202e \\u2066// check later\\u2069 \\u2066") {';
  assertEquals(escapeControls(trojan), shown);
  assertEquals(terminalSafe(trojan), shown);
  for (
    const c of ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
  ) {
    assertEquals(escapeControls(`a${c}b`), `a\\u${c.charCodeAt(0).toString(16)}b`);
  }
  for (const c of ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\ufeff", "\u061c"]) {
    assertEquals(escapeControls(`x${c}y`), `x\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}y`);
  }
  assertEquals(escapeControls("family 👨‍👩‍👧 and 🏳️‍🌈 stay whole"), "family 👨‍👩‍👧 and 🏳️‍🌈 stay whole");
  assertEquals(escapeControls("C1 \x9b31m and DEL \x7f"), "C1 \\x9b31m and DEL \\x7f");
  assertEquals(escapeControls("tab\tand\r\nnewline\rcr"), "tab\tand\nnewline\\rcr");
});

Deno.test("the sink lets navi's own colours through but never conceal, blink, inverse or extended colours", () => {
  assertEquals(
    terminalSafe("\x1b[1mbold\x1b[22m \x1b[2;31mdim red\x1b[0m"),
    "\x1b[1mbold\x1b[22m \x1b[2;31mdim red\x1b[0m",
  );
  assertEquals(terminalSafe("\x1b[8mhidden\x1b[28m"), "\\x1b[8mhidden\\x1b[28m");
  assertEquals(terminalSafe("\x1b[5;7mx\x1b[38;5;196my"), "\\x1b[5;7mx\\x1b[38;5;196my");
  assertEquals(terminalSafe("\x1b[2J\x1b[H"), "\\x1b[2J\\x1b[H", "a stream sink never clears the screen");
  assertEquals(
    terminalSafe("\x1b[2J\x1b[H\r\x1b[3A\x1b[12C", { drawing: true }),
    "\x1b[2J\x1b[H\r\x1b[3A\x1b[12C",
  );
  assertEquals(terminalSafe("\x1b]52;c;eA==\x07\u202e", { drawing: true }), "\\x1b]52;c;eA==\\x07\\u202e");
});

Deno.test("an MCP error with colour and conceal sequences comes out as visible text in the result line", () => {
  const line = resultSummary({ ok: false, error: "\x1b[31mFAKE: approved\x1b[0m \x1b[8msecret\x1b[28m" });
  assertEquals(line, "error: \\x1b[31mFAKE: approved\\x1b[0m \\x1b[8msecret\\x1b[28m");
  assertEquals(terminalSafe(line), line);
});
