import { join } from "node:path";
import { readPrompt, replayUpdates } from "../../../core/acp/content.ts";
import { fileMentions } from "../../../core/mod.ts";
import { assertEquals, tempDir } from "../../helpers.ts";

Deno.test("a prompt's blocks: file links become @mentions, embedded buffers and images are attached", async () => {
  await using ws = await tempDir();
  await Deno.writeTextFile(join(ws.path, "my notes.md"), "on disk\n");
  const url = (p: string) => `file://${join(ws.path, p).split("/").map(encodeURIComponent).join("/")}`;
  const input = await readPrompt([
    { type: "text", text: "look at " },
    { type: "resource_link", uri: url("a.ts"), name: "a.ts" },
    { type: "text", text: ", " },
    { type: "resource_link", uri: url("my notes.md"), name: "my notes.md" },
    { type: "text", text: " and " },
    { type: "resource", resource: { uri: url("b.ts"), text: "unsaved()" } },
    { type: "image", mimeType: "image/png", data: "AA==" },
    { type: "audio", mimeType: "audio/wav", data: "AA==" },
  ], { workspace: ws.path, mentions: [fileMentions(ws.path)] });
  assertEquals(input.text, "look at @a.ts, `my notes.md` and `b.ts`");
  assertEquals(input.attached, [
    '<file path="my notes.md">\non disk\n</file>',
    '<file path="b.ts">\nunsaved()\n</file>',
  ]);
  assertEquals(input.images, [{ type: "image_url", image_url: { url: "data:image/png;base64,AA==" } }]);
  assertEquals(input.problems, ["audio content is not supported; left out"]);
});

Deno.test("a saved conversation replays as the user's messages, the answers and each call with its outcome", () => {
  const updates = replayUpdates([
    { role: "system", content: "system prompt" },
    { role: "user", content: "<project-instructions>\nbe nice\n</project-instructions>" },
    { role: "user", content: "read it" },
    {
      role: "assistant",
      content: "Sure.",
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"a.ts"}' },
      }],
    },
    { role: "tool", tool_call_id: "c1", content: '{"ok":false,"error":"File not found: a.ts"}' },
    { role: "user", content: "<system-reminder>tools changed</system-reminder>" },
    { role: "assistant", content: "It is missing." },
  ], "/ws");
  assertEquals(updates.map((u) => u.sessionUpdate), [
    "user_message_chunk",
    "agent_message_chunk",
    "tool_call",
    "agent_message_chunk",
  ]);
  const call = updates[2] as { status: string; kind: string; locations: unknown; title: string };
  assertEquals([call.status, call.kind, call.title], ["failed", "read", "read_file a.ts"]);
  assertEquals(call.locations, [{ path: "/ws/a.ts" }]);
});
