// Subagents end to end: navi -p against the scripted model server, whose answers are chosen by the request's
// system prompt (which agent asks) and last user message (which task).
import { join } from "node:path";
import { type Recorded, startLlmServer, type Step } from "../../support/llm_server.ts";
import { userHomeEnv, writeTree } from "../../support/project_fixture.ts";
import { validLines } from "../../support/stream_json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  ROOT,
  runNavi,
  tempDir,
  textUnder,
  writeConfig,
} from "../../helpers.ts";

const KEY = "sk-agents-KNOWN-KEY-31337313";

type Body = Record<string, unknown>;
type Msg = { role: string; content: unknown; tool_calls?: unknown[] };

const messages = (body: Body) => body.messages as Msg[];
const system = (body: Body) => String(messages(body)[0]?.content ?? "");
const last = (body: Body) => messages(body).at(-1)!;
const toolNames = (body: Body) =>
  ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const task = (agent: string, prompt: string, description = `run ${agent}`) => ({
  name: "task",
  arguments: JSON.stringify({ agent, description, prompt }),
});

const REVIEWER = [
  "---",
  "name: reviewer",
  "description: Reviews code for bugs and reports them.",
  "tools: Read, Grep",
  "---",
  "You are REVIEWER-PROMPT-9d1. Review the file the task names and report problems.",
  "",
].join("\n");

async function setup(files: Record<string, string>, config: Record<string, unknown> = {}) {
  const home = await tempDir();
  const ws = await tempDir();
  const user = await tempDir();
  await writeTree(ws.path, { ".git/HEAD": "ref: refs/heads/main\n", ...files });
  return {
    home: home.path,
    ws: ws.path,
    async run(args: string[], script: (i: number, body: Body, seen: Recorded[]) => Step) {
      const holder: { requests: Recorded[] } = { requests: [] };
      const server = startLlmServer((i, body) => script(i, body, holder.requests));
      holder.requests = server.requests;
      await writeConfig(home.path, {
        providers: { t: { base_url: server.url, api_key: "$NAVI_TEST_KEY" } },
        model: "m",
        ...config,
      });
      const env = { NAVI_TEST_KEY: KEY, ...userHomeEnv(user.path) };
      try {
        const r = await runNavi(args, { home: home.path, cwd: ws.path, env });
        return { ...r, requests: server.requests };
      } finally {
        await server.close();
      }
    },
    async [Symbol.asyncDispose]() {
      for (const d of [home, ws, user]) await d[Symbol.asyncDispose]();
    },
  };
}

const trustIt = (t: Awaited<ReturnType<typeof setup>>) => t.run(["trust", "--yes"], () => ({ text: "" }));

function toolResults(body: Body): Record<string, unknown>[] {
  return messages(body).filter((m) => m.role === "tool").map((m) => JSON.parse(String(m.content)));
}

Deno.test("a .claude/agents/reviewer.md with tools Read, Grep runs twice in parallel, read tools only, both answers reach the parent", async () => {
  await using t = await setup({ ".claude/agents/reviewer.md": REVIEWER, "a.ts": "a\n", "b.ts": "b\n" });
  assertEquals((await trustIt(t)).code, 0);
  const firstStillStreaming: boolean[] = [];
  const r = await t.run(["-p", "review both"], (_i, body, seen) => {
    if (system(body).includes("REVIEWER-PROMPT-9d1")) {
      const file = String(last(body).content).includes("a.ts") ? "a" : "b";
      const reviews = seen.filter((q) => system(q.body).includes("REVIEWER-PROMPT-9d1"));
      if (reviews.length === 2) firstStillStreaming.push(!reviews[0].progress.ended);
      return { text: `${file}.ts is fine`, fault: { delayMs: 150 } };
    }
    if (last(body).role === "user") {
      return {
        toolCalls: [task("reviewer", "review a.ts", "review a"), task("reviewer", "review b.ts", "review b")],
      };
    }
    return { text: "both reviewed" };
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "both reviewed\n");
  const reviews = r.requests.filter((q) => system(q.body).includes("REVIEWER-PROMPT-9d1"));
  assertEquals(reviews.length, 2);
  for (const q of reviews) assertEquals(toolNames(q.body), ["read_file", "grep"]);
  assertEquals(
    firstStillStreaming,
    [true],
    "the second subagent's request came while the first one's streamed",
  );
  const results = toolResults(r.requests.at(-1)!.body);
  assertEquals(results.map((x) => [x.ok, x.agent, x.answer]).sort(), [
    [true, "reviewer", "a.ts is fine"],
    [true, "reviewer", "b.ts is fine"],
  ]);
  assertMatch(String(results[0].usage), /in .* out · \d+\.\ds$/);
  const keys = reviews.map((q) => String(q.body.prompt_cache_key));
  assertEquals(keys[0], keys[1]);
  assertMatch(keys[0], /:reviewer$/);
  assert(keys[0] !== String(r.requests[0].body.prompt_cache_key), "a cache key of its own");
  assertEquals(
    r.requests[0].body.tools,
    r.requests.at(-1)!.body.tools,
    "the parent's tools array never changes",
  );
  assertMatch(r.stderr, /↳ reviewer · review a: started/);
  assertMatch(r.stderr, /↳ reviewer · review b: done · 0 tool calls · \d+\.\ds/);
});

Deno.test("a subagent asking for bash under --approval ask without a terminal is refused; the parent goes on", async () => {
  await using t = await setup({});
  const r = await t.run(["-p", "delegate", "--approval", "ask"], (_i, body) => {
    if (system(body).includes("working for another agent")) {
      if (last(body).role === "user") {
        return { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "touch made.txt" }) }] };
      }
      return { text: `sub saw: ${String(last(body).content)}` };
    }
    if (last(body).role === "user") return { toolCalls: [task("general", "make the file")] };
    return { text: "parent done" };
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "parent done\n");
  assert(!(await Deno.stat(join(t.ws, "made.txt")).catch(() => null)), "bash did not run");
  const [result] = toolResults(r.requests.at(-1)!.body);
  assertEquals(result.ok, true);
  assertMatch(String(result.answer), /Not approved: bash needs approval/);
});

Deno.test("depth 2 is refused by default: a subagent is offered no task tool, and a task call it makes anyway fails", async () => {
  await using t = await setup({});
  const r = await t.run(["-p", "delegate", "--approval", "auto"], (_i, body) => {
    if (system(body).includes("working for another agent")) {
      if (last(body).role === "user") return { toolCalls: [task("general", "go deeper")] };
      return { text: `sub saw: ${String(last(body).content)}` };
    }
    if (last(body).role === "user") return { toolCalls: [task("general", "delegate more")] };
    return { text: "parent done" };
  });
  assertEquals(r.code, 0, r.stderr);
  const subs = r.requests.filter((q) => system(q.body).includes("working for another agent"));
  assertEquals(subs.length, 2, "no third level ever asked the model");
  assert(!toolNames(subs[0].body).includes("task"), "no task tool for a subagent");
  assert(toolNames(r.requests[0].body).includes("task"));
  assertEquals(toolResults(subs[1].body), [{
    ok: false,
    error: "A subagent cannot start subagents here (agents.max_depth is 1)",
  }]);
  assertEquals(toolResults(r.requests.at(-1)!.body)[0].ok, true, "the subagent still answered");
});

Deno.test("a subagent that reaches maxTurns returns ok:false with its partial answer; the parent goes on", async () => {
  const looper =
    "---\nname: looper\ndescription: Loops.\ntools: [Read]\nmaxTurns: 2\n---\nYou are LOOPER-7.\n";
  await using t = await setup({ ".navi/agents/looper.md": looper, "x.txt": "x\n" });
  assertEquals((await trustIt(t)).code, 0);
  const r = await t.run(["-p", "loop"], (i, body) => {
    if (system(body).includes("LOOPER-7")) {
      return { text: `step ${i}`, toolCalls: [{ name: "read_file", arguments: '{"path":"x.txt"}' }] };
    }
    if (last(body).role === "user") return { toolCalls: [task("looper", "loop forever")] };
    return { text: "parent went on" };
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "parent went on\n");
  assertEquals(r.requests.filter((q) => system(q.body).includes("LOOPER-7")).length, 2);
  const [result] = toolResults(r.requests.at(-1)!.body);
  assertEquals(result.ok, false);
  assertEquals(result.error, "looper reached its limit of 2 model requests");
  assertMatch(String(result.partial_answer), /^step \d+$/);
});

Deno.test("a subagent's transcript is kept under its parent session, without the secrets it saw", async () => {
  await using t = await setup({});
  const r = await t.run(["-p", "leak", "--output-format", "json"], (_i, body) => {
    if (system(body).includes("read-only explorer")) return { text: `the key is ${KEY}` };
    if (last(body).role === "user") return { toolCalls: [task("explore", `find ${KEY}`)] };
    return { text: "done" };
  });
  assertEquals(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const sessions = join(t.home, "sessions");
  const id = out.session_id as string;
  const transcript = await Deno.readTextFile(join(sessions, id, "agents", "1.jsonl"));
  assertMatch(transcript, /"subagent_of":\{"id":"[^"]+","n":1,"agent":"explore"\}/);
  assertMatch(transcript, /the key is/);
  assert(!textUnder(t.home).includes(KEY), "no secret in any file under NAVI_HOME");
  assert(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), "no secret on the screen");
  assertEquals(out.subagent_usage.runs, 1);
  assert(out.subagent_usage.prompt_tokens > 0, "subagent tokens counted apart");
  assertEquals(
    out.session_usage.prompt_tokens,
    out.usage.prompt_tokens,
    "the conversation's own tokens only",
  );
  const show = await t.run(["sessions", "show", id.slice(0, 12)], () => ({ text: "" }));
  assertEquals(show.code, 0, show.stderr);
  assertMatch(
    show.stdout,
    new RegExp(
      `^1 +explore +run explore +ok +\\d+/\\d+/\\d+ +\\d+\\.\\ds +${join(sessions, id)}/agents/1\\.jsonl`,
      "m",
    ),
  );
  const list = await t.run(["sessions"], () => ({ text: "" }));
  assertEquals(
    list.stdout.split("\n").filter((l) => l.startsWith(id.slice(0, 8))).length,
    1,
    "a transcript is no session of its own",
  );
});

Deno.test("hostile agent files: each bad one is one line naming it, the good one still loads, nothing runs untrusted", async () => {
  await using t = await setup({
    ".claude/agents/reviewer.md": REVIEWER,
    ".claude/agents/broken.md": "---\nname: [unclosed\n---\nbody\n",
    ".claude/agents/nodesc.md": "---\nname: nodesc\n---\nbody\n",
    ".claude/agents/badname.md": '---\nname: "../../etc"\ndescription: x\n---\nbody\n',
    ".claude/agents/web.md": "---\nname: web\ndescription: Web.\ntools: WebFetch, Read, Bogus\n---\nbody\n",
  });
  const untrusted = await t.run(["-p", "hi"], (_i, body) => ({ text: toolDescription(body) }));
  assertEquals(untrusted.code, 0, untrusted.stderr);
  assert(!untrusted.stdout.includes("reviewer"), "an untrusted project's agents are not offered");
  assertMatch(untrusted.stderr, /not trusted; skipped .*agent/);
  assertEquals((await trustIt(t)).code, 0);
  const r = await t.run(["-p", "hi"], (_i, body) => ({ text: toolDescription(body) }));
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stderr.split("\n");
  for (const name of ["broken.md", "nodesc.md", "badname.md"]) {
    assertEquals(lines.filter((l) => l.includes(name)).length, 1, `${name}: ${r.stderr}`);
  }
  assertEquals(lines.filter((l) => l.includes("web.md") && /WebFetch, Bogus/.test(l)).length, 1, r.stderr);
  assertMatch(r.stdout, /^ {2}- reviewer: Reviews code for bugs/m);
  assertMatch(r.stdout, /^ {2}- web: Web\./m);
  assert(!r.stdout.includes("nodesc"));
});

function toolDescription(body: Body): string {
  const tools = (body.tools ?? []) as { function: { name: string; description: string } }[];
  return tools.find((t) => t.function.name === "task")?.function.description ?? "(no task tool)";
}

Deno.test("every run of the same agent sends the same prefix (system prompt and tools array); the parent's tools never change", async () => {
  await using t = await setup({});
  const r = await t.run(["-p", "three times"], (_i, body) => {
    if (system(body).includes("read-only explorer")) return { text: `found ${String(last(body).content)}` };
    const done = toolResults(body).length;
    if (done < 3) return { toolCalls: [task("explore", `look ${done}`)] };
    return { text: "all found" };
  });
  assertEquals(r.code, 0, r.stderr);
  const subs = r.requests.filter((q) => system(q.body).includes("read-only explorer"));
  assertEquals(subs.length, 3);
  const prefix = (b: Body) => JSON.stringify([b.tools, messages(b)[0]]);
  assertEquals(new Set(subs.map((q) => prefix(q.body))).size, 1, "byte-identical prefix");
  assertEquals(toolNames(subs[0].body), ["read_file", "list_dir", "glob", "grep", "skill"]);
  const parents = r.requests.filter((q) => !subs.includes(q));
  assertEquals(
    new Set(parents.map((q) => JSON.stringify(q.body.tools))).size,
    1,
    "the parent's array is fixed",
  );
  assertEquals(toolResults(r.requests.at(-1)!.body).map((x) => x.answer), [
    "found look 0",
    "found look 1",
    "found look 2",
  ]);
});

Deno.test("with agents.max_depth 2 a subagent may start one of its own, whose transcript goes under its own", async () => {
  await using t = await setup({}, { agents: { max_depth: 2 } });
  const r = await t.run(["-p", "nest", "--approval", "auto", "--output-format", "json"], (_i, body) => {
    const level = String(last(body).content);
    if (system(body).includes("working for another agent")) {
      if (level === "level 1") return { toolCalls: [task("general", "level 2")] };
      if (last(body).role === "user") return { toolCalls: [task("general", "level 3")] };
      return { text: `deepest saw: ${String(last(body).content)}` };
    }
    if (last(body).role === "user") return { toolCalls: [task("general", "level 1")] };
    return { text: "parent done" };
  });
  assertEquals(r.code, 0, r.stderr);
  const subs = r.requests.filter((q) => system(q.body).includes("working for another agent"));
  assertEquals(subs.map((q) => toolNames(q.body).includes("task")), [true, false, false, true]);
  const id = JSON.parse(r.stdout).session_id as string;
  const nested = join(t.home, "sessions", id, "agents", "1", "agents", "1.jsonl");
  assertMatch(
    await Deno.readTextFile(nested),
    /"subagent_of":\{"id":"[^"]+-agent-1","n":1,"agent":"general"\}/,
  );
  assertMatch(String(JSON.parse(String(last(subs[2].body).content)).error), /agents\.max_depth is 2/);
});

Deno.test("a hostile project agent asking for bypassPermissions still runs in the conversation's mode: bash is refused", async () => {
  const yolo =
    "---\nname: yolo\ndescription: Runs anything.\ntools: Bash\npermissionMode: bypassPermissions\n---\nYOLO-3\n";
  await using t = await setup({ ".claude/agents/yolo.md": yolo });
  assertEquals((await trustIt(t)).code, 0);
  const r = await t.run(["-p", "go"], (_i, body) => {
    if (system(body).includes("YOLO-3")) {
      if (last(body).role === "user") {
        return { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "touch pwned" }) }] };
      }
      return { text: String(last(body).content) };
    }
    if (last(body).role === "user") return { toolCalls: [task("yolo", "do it")] };
    return { text: "parent done" };
  });
  assertEquals(r.code, 0, r.stderr);
  assert(!(await Deno.stat(join(t.ws, "pwned")).catch(() => null)), "bash did not run");
  const sub = r.requests.filter((q) => system(q.body).includes("YOLO-3"));
  assertEquals(toolNames(sub[0].body), ["bash"]);
  assertMatch(String(toolResults(sub[1].body)[0].error), /^Not approved: bash needs approval/);
});

Deno.test("stream-json: a subagent's start and end are navi_subagent lines, valid against the schema", async () => {
  await using t = await setup({});
  const r = await t.run(["-p", "go", "--output-format", "stream-json"], (_i, body) => {
    if (system(body).includes("read-only explorer")) return { text: "found it" };
    if (last(body).role === "user") {
      return { toolCalls: [{ id: "t1", ...task("explore", "find it", "find") }] };
    }
    return { text: "done" };
  });
  assertEquals(r.code, 0, r.stderr);
  const lines = (await validLines(r.stdout)).filter((l) => l.type === "navi_subagent");
  assertEquals(lines.map((l) => [l.event, l.n, l.agent, l.description, l.depth, l.tool_use_id, l.ok]), [
    ["start", 1, "explore", "find", 1, "t1", undefined],
    ["end", 1, "explore", "find", 1, "t1", true],
  ]);
  const usage = lines[1].usage as Record<string, number>;
  assert(usage.input_tokens > 0 && usage.output_tokens > 0, JSON.stringify(usage));
});

Deno.test("a subagent that lists mcp__docs__echo (or a glob) gets those MCP tools and runs them; one that lists only Read gets no MCP tool", async () => {
  const docs =
    "---\nname: docs\ndescription: Uses the docs server.\ntools: [mcp__docs__ech*, Read]\n---\nDOCS-5\n";
  const plain = "---\nname: plain\ndescription: Reads only.\ntools: Read\n---\nPLAIN-5\n";
  await using t = await setup({ ".navi/agents/docs.md": docs, ".navi/agents/plain.md": plain }, {
    mcp_servers: {
      docs: { command: Deno.execPath(), args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")] },
    },
  });
  assertEquals((await trustIt(t)).code, 0);
  const r = await t.run(["-p", "go", "--approval", "auto"], (_i, body) => {
    if (system(body).includes("DOCS-5")) {
      if (last(body).role === "user") {
        return {
          toolCalls: [{ name: "mcp__docs__echo", arguments: JSON.stringify({ message: "via mcp" }) }],
        };
      }
      return { text: `docs says ${String(last(body).content)}` };
    }
    if (system(body).includes("PLAIN-5")) return { text: "plain done" };
    if (last(body).role === "user") return { toolCalls: [task("docs", "ask docs"), task("plain", "read")] };
    return { text: "parent done" };
  });
  assertEquals(r.code, 0, r.stderr);
  const docsReq = r.requests.find((q) => system(q.body).includes("DOCS-5"))!;
  assertEquals(toolNames(docsReq.body), ["read_file", "mcp__docs__echo"]);
  const plainReq = r.requests.find((q) => system(q.body).includes("PLAIN-5"))!;
  assertEquals(toolNames(plainReq.body), ["read_file"]);
  const [docsResult] = toolResults(r.requests.at(-1)!.body);
  assertMatch(String(docsResult.answer), /via mcp/);
});

Deno.test("a subagent whose model request fails returns ok:false with the error; the parent goes on", async () => {
  await using t = await setup({});
  const r = await t.run(["-p", "go"], (_i, body) => {
    if (system(body).includes("read-only explorer")) {
      return { status: 400, message: "the sub request is refused" };
    }
    if (last(body).role === "user") return { toolCalls: [task("explore", "look")] };
    return { text: "parent went on" };
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "parent went on\n");
  const [result] = toolResults(r.requests.at(-1)!.body);
  assertEquals([result.ok, result.partial_answer], [false, ""]);
  assertMatch(String(result.error), /^explore failed: .*the sub request is refused/);
  assertMatch(
    r.stderr,
    /^● task .*\n {2}↳ explore · run explore: started\n {2}↳ explore · run explore: explore failed: .*\n {2}⎿ error: explore failed/m,
  );
});
