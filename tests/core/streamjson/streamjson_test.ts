import { jsonLine, parseInputLine, toolInput } from "../../../core/streamjson/mod.ts";
import { assertEquals } from "../../helpers.ts";

Deno.test("input lines: strings, text and image blocks are user messages; anything else one reason", () => {
  const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content } });
  assertEquals(parseInputLine(user("hi")), { ok: true, text: "hi", content: "hi" });
  assertEquals(parseInputLine(user([{ type: "text", text: "a" }, { type: "text", text: "b" }])), {
    ok: true,
    text: "a\nb",
    content: "a\nb",
  });
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "AA==" } };
  assertEquals(parseInputLine(user([{ type: "text", text: "see" }, image])), {
    ok: true,
    text: "see",
    content: [{ type: "text", text: "see" }, {
      type: "image_url",
      image_url: { url: "data:image/png;base64,AA==" },
    }],
  });
  const refused = (line: string) => {
    const r = parseInputLine(line);
    return r.ok ? "accepted" : r.error;
  };
  assertEquals(refused("[1]"), "not a JSON object");
  assertEquals(
    refused(JSON.stringify({ type: "user", message: { role: "assistant", content: "x" } })),
    'a user message needs "message": {"role": "user", "content": ...}',
  );
  assertEquals(refused(user([])), "message.content must be a string or a non-empty array of blocks");
  assertEquals(
    refused(user([{ type: "tool_result" }])),
    'content blocks of type "tool_result" are not supported (text, image)',
  );
  assertEquals(
    refused(user([{ type: "image", source: { type: "url" } }])).startsWith("an image block needs"),
    true,
  );
});

Deno.test("a JSON line escapes every control character, C1 and line separators included", () => {
  const line = jsonLine({ t: "a\x1b[2J\x9b\u2028\x7f" });
  assertEquals(line, '{"t":"a\\u001b[2J\\u009b\\u2028\\u007f"}\n');
  assertEquals(JSON.parse(line).t, "a\x1b[2J\x9b\u2028\x7f");
});

Deno.test("tool input: the arguments object, {} for none, {_raw} for arguments that are not an object", () => {
  const call = (args: string) => ({ id: "1", name: "t", arguments: args });
  assertEquals(toolInput(call('{"a":1}')), { a: 1 });
  assertEquals(toolInput(call("")), {});
  assertEquals(toolInput(call("[1]")), { _raw: "[1]" });
  assertEquals(toolInput(call("{broken")), { _raw: "{broken" });
});
