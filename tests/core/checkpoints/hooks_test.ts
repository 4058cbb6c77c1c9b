// How checkpoints hook into the agent: by a tool's declared writes or its approval class, never its name,
// so plugin and MCP tools that change files are kept too; with checkpoints off, turns are still marked.
import { join } from "node:path";
import { z } from "zod";
import {
  CheckpointStore,
  defineRawTool,
  defineTool,
  fileEffect,
  openConversation,
  readChanges,
  storeDir,
} from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { assert, assertEquals, testApp } from "../../helpers.ts";

Deno.test("a call's effect comes from the tool's declared writes or its approval class", () => {
  const byName = new Map(builtinTools().map((t) => [t.name, t]));
  assertEquals(fileEffect(byName.get("write_file")!, { path: "a.txt", content: "" }), { files: ["a.txt"] });
  assertEquals(fileEffect(byName.get("edit_file")!, { path: "b", old_string: "x", new_string: "y" }), {
    files: ["b"],
  });
  assertEquals(fileEffect(byName.get("bash")!, { command: "true" }), "any");
  assertEquals(fileEffect(byName.get("read_file")!, { path: "a.txt" }), undefined);
  assertEquals(
    fileEffect(byName.get("write_file")!, { nonsense: 1 }),
    "any",
    "bad arguments: assume anything",
  );
  const mcp = defineRawTool({
    name: "mcp__fs__write",
    description: "- w",
    inputSchema: { type: "object" },
    approval: "write",
    handler: () => "ok",
  });
  assertEquals(fileEffect(mcp, {}), "any");
});

function writer(name: string, approval: "write" | "read_only", file: string) {
  return defineTool({
    name,
    description: `- ${name}`,
    parameters: z.object({}),
    approval,
    handler: async (_a, ctx) => {
      await Deno.writeTextFile(join(ctx.workspace, file), `${name} was here\n`);
      return { ok: true };
    },
  });
}

Deno.test("a plugin or MCP tool that is not read-only has its changes kept like bash's", async () => {
  const server = startLlmServer([
    { toolCalls: [{ name: "plugin_write", arguments: "{}" }] },
    { toolCalls: [{ name: "sneaky_read", arguments: "{}" }] },
    { text: "done" },
  ]);
  await using t = await testApp({ providers: { p: { base_url: server.url, api_key: "k" } }, model: "m" });
  try {
    t.app.registry.register(writer("plugin_write", "write", "x.txt"));
    t.app.registry.register(writer("sneaky_read", "read_only", "y.txt"));
    const convo = openConversation(t.app, { approval: "auto" });
    const result = await convo.agent.run("go", new AbortController().signal);
    assertEquals(result.toolCalls, [{ name: "plugin_write", ok: true }, { name: "sneaky_read", ok: true }]);
    const store = new CheckpointStore(storeDir(t.home, convo.agent.session.meta.id));
    const { changes } = readChanges(store, convo.agent.session.meta.id);
    assertEquals(changes.map((c) => [c.n, c.path, c.by, c.before]), [[1, "x.txt", "plugin_write", null]]);
    assertEquals(convo.agent.session.checkpoints.map((c) => [c.n, c.kind, c.prompt]), [[1, "turn", "go"]]);
  } finally {
    await server.close();
  }
});

Deno.test("with checkpoints off nothing is stored, turns are still marked, the conversation can rewind", async () => {
  const server = startLlmServer([{ text: "one" }, { text: "two" }]);
  await using t = await testApp({
    providers: { p: { base_url: server.url, api_key: "k" } },
    model: "m",
    checkpoints: { enabled: false },
  });
  try {
    const convo = openConversation(t.app, {});
    const signal = new AbortController().signal;
    await convo.agent.run("first", signal);
    await convo.agent.run("second", signal);
    const id = convo.agent.session.meta.id;
    assert(!new CheckpointStore(storeDir(t.home, id)).exists(), "no store");
    const r = await convo.rewind({
      to: 1,
      code: false,
      conversation: true,
      confirm: () => Promise.resolve(false),
    });
    assertEquals(r.checkpoint, 3);
    const contents = convo.agent.session.messages.map((m) => m.content);
    assert(contents.includes("first") && !contents.includes("second"), JSON.stringify(contents));
  } finally {
    await server.close();
  }
});
