// `navi acp` driven as an editor drives it: the ACP SDK's client side over the child's stdio, a scripted
// OpenAI-compatible server as the model.
import type * as acp from "@agentclientprotocol/sdk";
import { join } from "node:path";
import { agentText, type Editor, startEditor, updatesOf } from "../../support/acp_client.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  keyedLlmConfig,
  MAIN,
  ROOT,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";

const KEY = "sk-acp-SECRET-0123456789abcdef";
const CAPS: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

async function initialize(ed: Editor, caps = CAPS) {
  return await ed.agent.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: caps,
    clientInfo: { name: "test-editor", version: "1" },
  });
}

const toolMessages = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: string }[]).filter((m) => m.role === "tool").map((m) =>
    m.content
  );

const SCRIPT: Step[] = [
  // 1: read through the editor's buffer, then edit after a permission (allowed)
  { toolCalls: [{ id: "r1", name: "read_file", arguments: '{"path":"app.ts"}' }] },
  {
    toolCalls: [{
      id: "e1",
      name: "edit_file",
      arguments: '{"path":"app.ts","old_string":"= 1","new_string":"= 2"}',
    }],
  },
  { text: `Edited app.ts; the key is ${KEY}.` },
  // 2: a write the user rejects
  { toolCalls: [{ id: "w1", name: "write_file", arguments: '{"path":"other.txt","content":"x"}' }] },
  { text: "Left other.txt alone." },
  // 3: bash through the editor's terminal, after a permission
  {
    toolCalls: [{
      id: "b1",
      name: "bash",
      arguments: '{"command":"echo from-terminal; echo \\"[$EDITOR_ONLY][$TEST_LLM_KEY]\\""}',
    }],
  },
  { text: "Ran it." },
  // 4: a response that hangs after some text, cancelled
  { hang: true, text: "Thinking about it" },
];

Deno.test("navi acp as an editor drives it: fs reads, an allowed edit, a rejected write, a terminal, a cancel, then session/load", async (t) => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const file = join(ws.path, "app.ts");
  await Deno.writeTextFile(file, "export const a = 0; // on disk\n");
  const server = startLlmServer(SCRIPT);
  let ed = startEditor({
    home: home.path,
    cwd: home.path,
    env: { TEST_LLM_KEY: KEY },
  });
  let sessionId = "";
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));

    await t.step("initialize advertises session loading, images and embedded context", async () => {
      const init = await initialize(ed);
      assertEquals(init.protocolVersion, 1);
      assertEquals(init.agentCapabilities?.loadSession, true);
      assertEquals(init.agentCapabilities?.promptCapabilities, {
        image: true,
        audio: false,
        embeddedContext: true,
      });
      assertEquals(init.agentInfo?.name, "navi");
    });

    await t.step("session/new in the client's cwd; the slash commands are advertised", async () => {
      const res = await ed.agent.request("session/new", { cwd: ws.path, mcpServers: [] });
      sessionId = res.sessionId;
      assertMatch(sessionId, /^\d{8}-\d{6}-/);
      assertEquals(res.modes?.currentModeId, "ask");
      assertEquals(res.configOptions?.[0].id, "model");
      await until(() => updatesOf(ed, "available_commands_update").length > 0, 10_000, "commands");
      const names = updatesOf(ed, "available_commands_update")[0].availableCommands.map((c) => c.name);
      for (const n of ["model", "approval", "compact", "tools", "usage"]) {
        assert(names.includes(n), names.join(" "));
      }
      const file = join(home.path, "sessions", `${sessionId}.jsonl`);
      assertEquals(
        await Deno.stat(file).then(() => true, () => false),
        false,
        "written at the first message",
      );
    });

    await t.step(
      "a prompt reads the unsaved buffer through fs/read_text_file and edits it after an allowed permission",
      async () => {
        ed.buffers.set(file, "export const a = 1; // unsaved\n");
        ed.answers.push("allow_once");
        const from = ed.updates.length;
        const res = await ed.agent.request("session/prompt", {
          sessionId,
          prompt: [{ type: "text", text: "bump a" }],
        });
        assertEquals(res.stopReason, "end_turn");
        const meta =
          (await Deno.readTextFile(join(home.path, "sessions", `${sessionId}.jsonl`))).split("\n")[0];
        assertEquals(JSON.parse(meta).cwd, ws.path, "the session runs in the client's cwd");
        assertEquals(ed.calls.slice(0, 4), [
          `fs/read_text_file ${file}`,
          `fs/read_text_file ${file}`,
          `fs/read_text_file ${file}`,
          `fs/write_text_file ${file}`,
        ], "read, the approval's preview, the edit's read, its write");
        assertEquals(ed.buffers.get(file), "export const a = 2; // unsaved\n");
        assertEquals(
          await Deno.readTextFile(file),
          "export const a = 0; // on disk\n",
          "the disk is the editor's",
        );
        assertMatch(toolMessages(server.requests[1].body)[0], /export const a = 1; \/\/ unsaved/);
        const [q] = ed.questions;
        assertEquals([q.request.toolCall.toolCallId, q.request.toolCall.kind], ["e1", "edit"]);
        assertEquals(q.request.options.map((o) => o.kind), ["allow_once", "allow_always", "reject_once"]);
        assertEquals(q.request.toolCall.content?.[0], {
          type: "diff",
          path: file,
          oldText: "export const a = 1; // unsaved\n",
          newText: "export const a = 2; // unsaved\n",
        });
        const calls = ed.updates.slice(from).map((n) => n.update).filter((u) =>
          u.sessionUpdate === "tool_call"
        );
        assertEquals(calls.map((c) => [c.toolCallId, c.kind, c.status, c.locations]), [
          ["r1", "read", "pending", [{ path: file }]],
          ["e1", "edit", "pending", [{ path: file }]],
        ]);
        const done = updatesOf(ed, "tool_call_update").filter((u) => u.status === "completed");
        assertEquals(done.map((u) => u.toolCallId), ["r1", "e1"]);
        assertEquals((done[1].content?.[0] as { type: string }).type, "diff");
        assertEquals(agentText(ed, from), "Edited app.ts; the key is [redacted].");
        assert(!JSON.stringify(ed.updates).includes(KEY), "no update carries the key");
      },
    );

    await t.step("a rejected permission fails the call and the model is told", async () => {
      ed.answers.push("reject_once");
      const res = await ed.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "write other.txt" }],
      });
      assertEquals(res.stopReason, "end_turn");
      assertEquals(ed.questions[1].request.toolCall.toolCallId, "w1");
      const failed = updatesOf(ed, "tool_call_update").filter((u) => u.toolCallId === "w1");
      assertEquals(failed.at(-1)?.status, "failed");
      assertMatch(toolMessages(server.requests[4].body).at(-1)!, /declined to run write_file/);
      assertEquals(ed.buffers.has(join(ws.path, "other.txt")), false);
      assertEquals(await Deno.stat(join(ws.path, "other.txt")).catch(() => null), null);
    });

    await t.step(
      "bash runs in the editor's terminal, shown in the tool call, with navi's environment only",
      async () => {
        ed.answers.push("allow_once");
        const res = await ed.agent.request("session/prompt", {
          sessionId,
          prompt: [{ type: "text", text: "run" }],
        });
        assertEquals(res.stopReason, "end_turn");
        const asked = ed.questions[2].request.toolCall;
        assertEquals(
          [asked.toolCallId, asked.kind],
          ["b1", "execute"],
          "bash stays under the approval rules",
        );
        assertMatch(String(asked.title), /^echo from-terminal/);
        const [id, term] = [...ed.terminals.entries()][0];
        const command = 'echo from-terminal; echo "[$EDITOR_ONLY][$TEST_LLM_KEY]"';
        assertEquals(
          term.request.args?.slice(-3),
          ["bash", "-c", command],
          "the sandbox's argv, the command last",
        );
        assertEquals(term.request.command, "env");
        assertEquals(term.request.args?.[0], "-i");
        assertEquals(term.request.cwd, ws.path);
        const shown = updatesOf(ed, "tool_call_update").filter((u) => u.toolCallId === "b1");
        assert(
          shown.some((u) => u.content?.some((c) => c.type === "terminal" && c.terminalId === id)),
          "terminal shown",
        );
        assert(ed.calls.includes(`terminal/release ${id}`), ed.calls.join("\n"));
        const result = JSON.parse(toolMessages(server.requests[6].body).at(-1)!);
        assertEquals(
          result.output,
          "from-terminal\n[][]\n",
          "neither the editor's environment nor navi's key",
        );
      },
    );

    await t.step("session/cancel mid-stream: the prompt answers cancelled", async () => {
      const from = ed.updates.length;
      const prompt = ed.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "think" }],
      });
      await until(() => agentText(ed, from).includes("Thinking"), 10_000, "the partial answer");
      await ed.agent.notify("session/cancel", { sessionId });
      assertEquals((await prompt).stopReason, "cancelled");
    });

    await t.step("a slash command runs without the model: /approval auto switches the mode", async () => {
      const from = ed.updates.length;
      const before = server.requests.length;
      const res = await ed.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "/approval auto" }],
      });
      assertEquals(res.stopReason, "end_turn");
      assertEquals(agentText(ed, from), "approval mode: auto");
      assertEquals(updatesOf(ed, "current_mode_update").at(-1)?.currentModeId, "auto");
      assertEquals(server.requests.length, before);
    });

    assertEquals(await ed.close(), 0);

    await t.step("session/load in a new navi acp replays the finished session", async () => {
      ed = startEditor({ home: home.path, cwd: home.path, env: { TEST_LLM_KEY: KEY } });
      await initialize(ed);
      const listed = await ed.agent.request("session/list", { cwd: ws.path });
      assertEquals(listed.sessions.map((x) => [x.sessionId, x.cwd, x.title]), [[
        sessionId,
        ws.path,
        "bump a",
      ]]);
      const res = await ed.agent.request("session/load", { sessionId, cwd: ws.path, mcpServers: [] });
      assertEquals(res.modes?.currentModeId, "ask");
      const users = updatesOf(ed, "user_message_chunk").map((u) => (u.content as { text: string }).text);
      assertEquals(users, ["bump a", "write other.txt", "run", "think"]);
      const answers = updatesOf(ed, "agent_message_chunk").map((u) => (u.content as { text: string }).text);
      assertEquals(answers[0], "Edited app.ts; the key is [redacted].");
      const calls = updatesOf(ed, "tool_call");
      assertEquals(calls.map((c) => [c.toolCallId, c.status]), [
        ["r1", "completed"],
        ["e1", "completed"],
        ["w1", "failed"],
        ["b1", "completed"],
      ]);
      assert(!JSON.stringify(ed.updates).includes(KEY));
    });
  } finally {
    await ed.close();
    await server.close();
  }
});

Deno.test("a client whose messages are malformed JSON-RPC gets errors, and navi keeps answering", async () => {
  await using home = await tempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-worker-options", MAIN, "acp"],
    cwd: home.path,
    env: { NAVI_HOME: home.path, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async (): Promise<Record<string, unknown>> => {
    while (!buffered.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("navi closed its output");
      buffered += value;
    }
    const line = buffered.slice(0, buffered.indexOf("\n"));
    buffered = buffered.slice(line.length + 1);
    return JSON.parse(line);
  };
  const send = (text: string) => writer.write(new TextEncoder().encode(text + "\n"));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    const exchange = async (lines: string[]) => {
      const out: Record<string, unknown>[] = [];
      for (const line of lines) {
        await send(line);
        out.push(await nextLine());
      }
      return out;
    };
    const code = (a: Record<string, unknown>) => (a.error as { code: number } | undefined)?.code;
    const before = await exchange([
      "{this is not json",
      '[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}]',
      '{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}',
      '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"one"}}',
    ]);
    assertEquals(
      before.map(code),
      [-32700, -32600, -32600, -32602],
      "parse, batch, not initialized, bad params",
    );
    const ok =
      (await exchange(['{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1}}']))[0];
    assertEquals([ok.id, (ok.result as { protocolVersion: number }).protocolVersion], [4, 1]);
    const after = await exchange([
      '{"jsonrpc":"2.0","id":5,"method":"no/such/method","params":{}}',
      '"just a string"',
      '{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}',
      '{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}',
    ]);
    assertEquals(after.map(code), [-32601, -32600, -32602, -32602]);
    assertMatch(String((after[2].error as { message: string }).message), /no session nope/);
    assertMatch(String((after[3].error as { message: string }).message), /cwd must be absolute/);
  } finally {
    clearTimeout(timer);
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    const status = await child.status;
    await child.stderr.cancel().catch(() => {});
    assertEquals(status.code, 0, "navi ends normally when the client closes its input");
  }
});

Deno.test("session/new merges the client's MCP servers with config.json's; their tools are offered from the first prompt", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer([{ text: "ok" }]);
  const testServer = ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")];
  const ed = startEditor({ home: home.path, cwd: home.path, env: { TEST_LLM_KEY: KEY } });
  try {
    await writeConfig(
      home.path,
      keyedLlmConfig(server.url, { mcp_servers: { cfg: { command: Deno.execPath(), args: testServer } } }),
    );
    await initialize(ed);
    const mcpServers: acp.McpServer[] = [
      {
        name: "from editor",
        command: Deno.execPath(),
        args: testServer,
        env: [{ name: "TOKEN", value: KEY }],
      },
      { type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] },
    ];
    const { sessionId } = await ed.agent.request("session/new", { cwd: ws.path, mcpServers });
    const res = await ed.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    assertEquals(res.stopReason, "end_turn");
    const offered = (server.requests[0].body.tools as { function: { name: string } }[]).map((x) =>
      x.function.name
    );
    assert(offered.includes("mcp__cfg__echo"), offered.join(" "));
    assert(offered.includes("mcp__from-editor__echo"), offered.join(" "));
    assertMatch(ed.stderr(), /MCP server old from the editor uses SSE, which navi does not speak; left out/);
  } finally {
    await ed.close();
    await server.close();
  }
});

Deno.test("the project's custom commands are advertised to the editor and expand as in every front", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.mkdir(join(ws.path, ".navi/commands"), { recursive: true });
  await Deno.writeTextFile(
    join(ws.path, ".navi/commands/review.md"),
    "---\ndescription: Review a path\nargument-hint: <path>\n---\nReview $ARGUMENTS for bugs.\n",
  );
  const server = startLlmServer([{ text: "Looks fine." }]);
  const ed = startEditor({ home: home.path, cwd: home.path, env: { TEST_LLM_KEY: KEY } });
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    await initialize(ed);
    const { sessionId } = await ed.agent.request("session/new", { cwd: ws.path, mcpServers: [] });
    await until(() => updatesOf(ed, "available_commands_update").length > 0, 10_000, "commands");
    const review = updatesOf(ed, "available_commands_update")[0].availableCommands.find((c) =>
      c.name === "review"
    );
    assertEquals(review, { name: "review", description: "Review a path", input: { hint: "<path>" } });
    const res = await ed.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "/review src/" }],
    });
    assertEquals(res.stopReason, "end_turn");
    const user = (server.requests[0].body.messages as { role: string; content: string }[]).at(-1)!;
    assertEquals(user.content, "Review src/ for bugs.");
  } finally {
    await ed.close();
    await server.close();
  }
});

Deno.test("the todo list reaches the editor as ACP plan updates, the whole list each time", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const todos = (items: [string, string][]) => ({
    toolCalls: [{
      name: "todo_write",
      arguments: JSON.stringify({ todos: items.map(([content, status]) => ({ content, status })) }),
    }],
  });
  const server = startLlmServer([
    todos([["read \x1b]52;c;eA==\x07 the code", "in_progress"], ["fix it", "pending"]]),
    todos([["read the code", "completed"], ["fix it", "in_progress"]]),
    { text: "planned" },
  ]);
  const ed = startEditor({ home: home.path, cwd: home.path, env: { TEST_LLM_KEY: KEY } });
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    await initialize(ed);
    const { sessionId } = await ed.agent.request("session/new", { cwd: ws.path, mcpServers: [] });
    const res = await ed.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "go" }],
    });
    assertEquals(res.stopReason, "end_turn");
    const plans = updatesOf(ed, "plan").map((u) => u.entries);
    assertEquals(plans, [
      [
        { content: "read \\x1b]52;c;eA==\\x07 the code", priority: "medium", status: "in_progress" },
        { content: "fix it", priority: "medium", status: "pending" },
      ],
      [
        { content: "read the code", priority: "medium", status: "completed" },
        { content: "fix it", priority: "medium", status: "in_progress" },
      ],
    ]);
  } finally {
    await ed.close();
    await server.close();
  }
});
