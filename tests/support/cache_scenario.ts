// One coding session against the caching LLM server, with every event that changes the tools: an MCP server's
// tools/list_changed adds a tool, another server changes a description, /plugins reload adds a plugin tool, the
// approval mode goes plan -> ask, and the session is resumed in a new process. Used by the request-bytes test
// and by bench/cache_session.ts.
import { join } from "node:path";
import { type DeferMode, NaviApp, openConversation, type ToolContext } from "../../core/mod.ts";
import { builtinTools } from "../../tools/mod.ts";
import { ROOT, runNavi, until, writeConfig } from "../helpers.ts";
import { rebilledTokens } from "./llm_cache.ts";
import { type Recorded, startLlmServer } from "./llm_server.ts";

/** The events, in the order they happen. */
export const EVENTS = [
  "list_changed adds a tool (docs)",
  "a tool's description changes (web)",
  "/plugins reload adds a plugin tool",
  "approval mode plan -> ask",
  "resumed in a new process",
] as const;

/** How long the session is and where the events fall. */
export interface ScenarioOptions {
  /** The `tools.defer` setting. */
  defer: DeferMode;
  /** Turns (two requests each: a tool call, then the answer) run in this process. */
  turns: number;
  /** Before which turn (from 1) each of the four in-process events happens. */
  eventTurns: [number, number, number, number];
  /** Model requests of the resumed process (tool calls, then the answer). */
  resumedRequests: number;
  /** `tools.defer_above_tokens` (default: navi's). */
  deferAboveTokens?: number;
}

/** What one event cost and whether the new tool worked at once. */
export interface EventOutcome {
  event: string;
  /** Index of the first request after the event. */
  request: number;
  /** Tokens of the previous request that this one sent differently (billed again). */
  rebilled: number;
  /** The tool the model called in that request, how, and whether it succeeded. */
  call: { tool: string; via: "direct" | "call_tool"; ok: boolean };
}

/** Every request the server saw, the events' outcomes and the session's figures. */
export interface ScenarioResult {
  requests: Recorded[];
  events: EventOutcome[];
  prompt: number;
  cached: number;
  hitRatio: number;
  /** The resumed process's `--output-format json` answer. */
  resumed: Record<string, unknown>;
}

interface Call {
  name: string;
  args: Record<string, unknown>;
}

const SERVER = join(ROOT, "tests/support/mcp_dynamic_server.ts");
const PLUGIN =
  `export default (navi) => navi.registerTool({ name: "stamp", description: "- Stamps a text with ` +
  `the date.", parameters: navi.z.object({ text: navi.z.string() }), approval: "read_only", handler: ` +
  `({ text }) => ({ ok: true, stamped: "2026-01-01 " + text }) });\n`;
const source = (i: number) =>
  Array.from({ length: 60 }, (_, n) => `export const value_${i}_${n} = compute(${n}, "file ${i}"); // ${n}`)
    .join("\n") + "\n";

/** Run the session; temporary directories and processes are gone when it returns. */
export async function runScenario(opts: ScenarioOptions): Promise<ScenarioResult> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "navi-cache-" }));
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "navi-cache-ws-" }));
  const queue: Call[] = [];
  const routes: { tool: string; via: "direct" | "call_tool" }[] = [];
  const llm = startLlmServer((i, body) => {
    const next = queue.shift();
    if (!next) return { text: `Done with step ${i}.` };
    const offered = (body.tools as { function: { name: string } }[]).some((t) =>
      t.function.name === next.name
    );
    routes[i] = { tool: next.name, via: offered ? "direct" : "call_tool" };
    const args = JSON.stringify(next.args);
    return offered ? { toolCalls: [{ name: next.name, arguments: args }] } : {
      toolCalls: [{
        name: "call_tool",
        arguments: JSON.stringify({ name: next.name, arguments: next.args }),
      }],
    };
  });
  const server = (name: string) => ({
    command: Deno.execPath(),
    args: ["run", "-A", SERVER, name, "--tools", "12", "--state", join(home, `${name}.state.json`)],
  });
  const config = {
    providers: { bench: { base_url: llm.url, api_key: "k" } },
    model: "m",
    approval: { mode: "plan" },
    features: { "mcp__*__control_*": false },
    tools: { defer: opts.defer, defer_above_tokens: opts.deferAboveTokens },
    mcp_servers: { docs: server("docs"), web: server("web") },
  };
  await writeConfig(home, config);
  await Deno.mkdir(join(ws, "src"));
  for (let i = 0; i < 6; i++) await Deno.writeTextFile(join(ws, "src", `f${i}.ts`), source(i));
  const app = new NaviApp({
    home,
    workspace: ws,
    config: config as never,
    builtins: builtinTools(),
    env: Deno.env,
  });
  const ctx: ToolContext = {
    workspace: ws,
    signal: new AbortController().signal,
    confirm: () => Promise.resolve(true),
  };
  const marks: { event: string; request: number }[] = [];
  try {
    await app.loadPlugins();
    await app.mcp.start();
    const convo = openConversation(app, { ask: () => Promise.resolve("yes") });
    const events: (() => Promise<Call>)[] = [
      async () => {
        await app.registry.invoke("mcp__docs__control_grow", {
          name: "summarize_note",
          description: "Summarizes a note in docs.",
        }, ctx);
        await until(() => app.registry.has("mcp__docs__summarize_note"), 10_000, "the grown tool");
        return { name: "mcp__docs__summarize_note", args: { id: "n1" } };
      },
      async () => {
        const text = "Gets a contact in web by id (v2: also returns its address).";
        await app.registry.invoke(
          "mcp__web__control_reword",
          { tool: "get_contact", description: text },
          ctx,
        );
        await until(
          () => app.registry.get("mcp__web__get_contact")?.description.startsWith(text) ?? false,
          10_000,
          "the new description",
        );
        return { name: "mcp__web__get_contact", args: { id: "c1" } };
      },
      async () => {
        await Deno.mkdir(join(home, "plugins"), { recursive: true });
        await Deno.writeTextFile(join(home, "plugins", "stamp.js"), PLUGIN);
        await app.loadPlugins();
        return { name: "stamp", args: { text: "release notes" } };
      },
      () => {
        convo.policy.mode = "ask";
        return Promise.resolve({ name: "write_file", args: { path: "notes.md", content: "# Notes\n" } });
      },
    ];
    const signal = new AbortController().signal;
    for (let turn = 1; turn <= opts.turns; turn++) {
      const e = opts.eventTurns.indexOf(turn);
      const call = e >= 0 ? await events[e]() : { name: "read_file", args: { path: `src/f${turn % 6}.ts` } };
      if (e >= 0) marks.push({ event: EVENTS[e], request: llm.requests.length });
      queue.push(call);
      const r = await convo.agent.run(`Step ${turn}: continue with the task.`, signal);
      if (r.toolCalls.length !== 1) {
        throw new Error(`turn ${turn}: expected one tool call, got ${r.toolCalls.length}`);
      }
    }
    await app.close();
    marks.push({ event: EVENTS[4], request: llm.requests.length });
    const tools = [
      "mcp__docs__summarize_note",
      "stamp",
      "mcp__web__get_contact",
      "read_file",
      "grep",
      "list_dir",
    ];
    for (let i = 0; i < opts.resumedRequests - 1; i++) {
      const name = tools[i % tools.length];
      queue.push({
        name,
        args: name === "read_file"
          ? { path: "src/f1.ts" }
          : name === "grep"
          ? { pattern: "value_1_4" }
          : name === "list_dir"
          ? {}
          : name === "stamp"
          ? { text: "x" }
          : { id: "r1" },
      });
    }
    const id = convo.agent.session.meta.id;
    const resumed = await runNavi([
      "--resume",
      id,
      "-p",
      "Continue.",
      "--approval",
      "ask",
      "--output-format",
      "json",
    ], { home, cwd: ws, timeoutMs: 60_000 });
    if (resumed.code !== 0) throw new Error(`the resumed process failed: ${resumed.stderr}`);
    const requests = llm.requests;
    const toolResult = (i: number) => {
      const msgs = requests[i + 1]?.body.messages as { role: string; content: string }[] | undefined;
      const last = msgs?.filter((m) => m.role === "tool").at(-1);
      return last ? JSON.parse(last.content).ok === true : false;
    };
    const prompt = requests.reduce((n, q) => n + q.usage!.prompt_tokens, 0);
    const cached = requests.reduce((n, q) => n + q.usage!.prompt_tokens_details.cached_tokens, 0);
    return {
      requests,
      events: marks.map(({ event, request }) => ({
        event,
        request,
        rebilled: rebilledTokens(requests[request - 1].body, requests[request].body),
        call: { ...routes[request], ok: toolResult(request) },
      })),
      prompt,
      cached,
      hitRatio: cached / prompt,
      resumed: JSON.parse(resumed.stdout),
    };
  } finally {
    await app.close();
    await llm.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
}
