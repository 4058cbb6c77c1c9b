// Subagents and hooks together, black-box (navi -p against the scripted model server): SubagentStart adds
// its context to the task prompt, a subagent's tool calls pass PreToolUse like the parent's, its end fires
// SubagentStop (not Stop), and it fires no UserPromptSubmit of its own.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { userHomeEnv } from "../../support/project_fixture.ts";
import { assert, assertEquals, runNavi, tempDir, writeConfig } from "../../helpers.ts";

type Msg = { role: string; content: unknown };
type Body = Record<string, unknown>;
const messages = (body: Body) => body.messages as Msg[];
const system = (body: Body) => String(messages(body)[0]?.content ?? "");
const last = (body: Body) => messages(body).at(-1)!;

Deno.test("SubagentStart context reaches the subagent, its grep is blocked by PreToolUse, SubagentStop (not Stop) fires at its end", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using user = await tempDir();
  await Deno.mkdir(join(ws.path, ".git"));
  await Deno.writeTextFile(join(ws.path, "a.ts"), "const a = 1;\n");
  const log = join(home.path, "hooks.log");
  const logged = (event: string) => `printf '%s\\n' "$(cat)" >> ${log}; echo ${event} > /dev/null`;
  const hooks = {
    SubagentStart: [{
      matcher: "explore",
      hooks: [{
        type: "command",
        command: `${logged("start")}; printf '%s' '{"hookSpecificOutput":{"hookEventName":"SubagentStart",` +
          `"additionalContext":"START-CONTEXT-42"}}'`,
      }],
    }],
    PreToolUse: [{
      matcher: "grep",
      hooks: [{ type: "command", command: "echo 'no grep here' >&2; exit 2" }],
    }],
    SubagentStop: [{ matcher: "explore", hooks: [{ type: "command", command: logged("stop") }] }],
    Stop: [{ hooks: [{ type: "command", command: logged("stop") }] }],
    UserPromptSubmit: [{ hooks: [{ type: "command", command: logged("prompt") }] }],
  };
  const server = startLlmServer((_i, body) => {
    if (system(body).includes("explore")) {
      const tools = messages(body).filter((m) => m.role === "tool");
      if (!tools.length) return { toolCalls: [{ name: "grep", arguments: '{"pattern":"const"}' }] };
      return { text: `explored: ${String(tools[0].content)}` };
    }
    if (last(body).role === "user") {
      const args = { agent: "explore", description: "look", prompt: "find the constants" };
      return { toolCalls: [{ name: "task", arguments: JSON.stringify(args) }] };
    }
    return { text: "parent done" };
  });
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: server.url, api_key: "none" } },
      model: "m",
      hooks,
    });
    const r = await runNavi(["-p", "explore it"], {
      home: home.path,
      cwd: ws.path,
      env: userHomeEnv(user.path),
    });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "parent done\n");
    const sub = server.requests.filter((q) => system(q.body).includes("explore"));
    assertEquals(sub.length, 2);
    assert(String(messages(sub[0].body).at(-1)!.content).includes("START-CONTEXT-42"), "start context sent");
    const grep = JSON.parse(String(messages(sub[1].body).at(-1)!.content));
    assertEquals([grep.ok, String(grep.error).includes("no grep here")], [false, true]);
    const inputs = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    const events = inputs.map((x) => x.hook_event_name);
    assertEquals(events, ["UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop"]);
    const [, start, stop] = inputs;
    assertEquals([start.agent_type, stop.agent_type, stop.agent_id], ["explore", "explore", start.agent_id]);
    assertEquals(stop.stop_hook_active, false);
    assert((await Deno.stat(stop.agent_transcript_path)).isFile, "the transcript path names the transcript");
  } finally {
    await server.close();
  }
});
