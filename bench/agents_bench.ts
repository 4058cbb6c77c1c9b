// The subagent benchmark, against the scripted server with a provider-like prompt cache (tests/support/llm_cache.ts):
// (1) the same agent run five times in one session (each run greps, reads a file and answers: three requests),
// each run's hit ratio (its prefix, the system prompt and the tools array, is the same bytes every time); (2) two subagents of one response in parallel against the same two
// one after the other (`agents.max_parallel` 1), as a ratio; (3) what subagents cost when unused: the task tool's
// share of the parent's prefix and the time to read empty agent folders. `deno run -A bench/agents_bench.ts`
// (in `deno task bench`; under `deno bench` it only times reading empty agent folders against the built-ins).
import { join } from "node:path";
import { AgentCatalog, type Config, NaviApp, openConversation } from "../core/mod.ts";
import { builtinTools } from "../tools/mod.ts";
import { startLlmServer, type Step } from "../tests/support/llm_server.ts";
import { PromptCache } from "../tests/support/llm_cache.ts";

type Body = Record<string, unknown>;
const messages = (b: Body) => b.messages as { role: string; content: unknown }[];
const isSub = (b: Body) =>
  String(messages(b)[0].content).includes("working for another agent") ||
  String(messages(b)[0].content).includes("read-only explorer");
let agentName = "explore";
const task = (description: string) => ({
  name: "task",
  arguments: JSON.stringify({
    agent: agentName,
    description,
    prompt: `Find where ${description} is handled.`,
  }),
});

/** The parent asks for `calls` subagents per turn; each subagent greps, reads a file, then answers. */
function script(calls: number, delayMs: number) {
  return (_i: number, body: Body): Step => {
    const last = messages(body).at(-1)!;
    if (isSub(body)) {
      if (last.role === "user") return { toolCalls: [{ name: "grep", arguments: '{"pattern":"value1"}' }] };
      const results = messages(body).filter((m) => m.role === "tool").length;
      if (results === 1) return { toolCalls: [{ name: "read_file", arguments: '{"path":"src/app.ts"}' }] };
      return { text: "It is handled in src/app.ts, line 3.", fault: delayMs ? { delayMs } : undefined };
    }
    if (last.role === "user") {
      const n = messages(body).filter((m) => m.role === "user").length;
      return { toolCalls: Array.from({ length: calls }, (_, k) => task(`topic ${n}-${k}`)) };
    }
    return { text: "done" };
  };
}

async function withApp<T>(
  opts: { calls: number; delayMs: number; parallel: number },
  fn: (
    ctx: { convo: ReturnType<typeof openConversation>; server: ReturnType<typeof startLlmServer> },
  ) => Promise<T>,
): Promise<T> {
  const home = await Deno.makeTempDir();
  const ws = await Deno.makeTempDir();
  await Deno.mkdir(join(ws, "src"));
  const source = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i}; // line ${i}`).join(
    "\n",
  );
  await Deno.writeTextFile(join(ws, "src/app.ts"), source);
  const server = startLlmServer(script(opts.calls, opts.delayMs), { cache: new PromptCache() });
  const config: Config = {
    providers: { t: { base_url: server.url, api_key: "bench-key" } },
    model: "m",
    agents: { max_parallel: opts.parallel },
    checkpoints: { enabled: false },
  };
  const app = new NaviApp({ home, workspace: ws, config, builtins: builtinTools(), env: Deno.env });
  const convo = openConversation(app, { approval: "auto", events: opts.calls ? timing : undefined });
  try {
    return await fn({ convo, server });
  } finally {
    await app.close();
    await server.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
}

const span = { first: 0, last: 0 };
const timing = {
  subagentStart: () => void (span.first ||= performance.now()),
  subagentEnd: () => void (span.last = performance.now()),
};

/** (1) Five runs of `agent` in one session: each run's cached / prompt tokens, and its prefix's size. */
async function cacheRuns(
  agent: string,
): Promise<{ ratios: number[]; prefixes: number; prefixTokens: number }> {
  agentName = agent;
  return await withApp({ calls: 1, delayMs: 0, parallel: 4 }, async ({ convo, server }) => {
    for (let turn = 0; turn < 5; turn++) {
      await convo.agent.run(`question ${turn}`, new AbortController().signal);
    }
    const subs = server.requests.filter((q) => isSub(q.body));
    const ratios: number[] = [];
    for (let run = 0; run < 5; run++) {
      const pair = subs.slice(run * 3, run * 3 + 3);
      const cached = pair.reduce((s, q) => s + q.usage!.prompt_tokens_details.cached_tokens, 0);
      ratios.push(cached / pair.reduce((s, q) => s + q.usage!.prompt_tokens, 0));
    }
    const prefix = subs.map((q) => JSON.stringify([q.body.tools, messages(q.body)[0]]));
    return { ratios, prefixes: new Set(prefix).size, prefixTokens: Math.round(prefix[0].length / 4) };
  });
}

/** (2) One response with two task calls: the time from the first subagent's start to the last one's end. */
async function twoSubagents(parallel: number): Promise<number> {
  return await withApp({ calls: 2, delayMs: 40, parallel }, async ({ convo }) => {
    span.first = span.last = 0;
    await convo.agent.run("two questions", new AbortController().signal);
    return span.last - span.first;
  });
}

/** Four agent folders that do not exist (a user without agent files). */
function missingFolders() {
  return ["a", "b", "c", "d"].map((f) => ({
    path: `/nonexistent-navi-bench/${f}/agents`,
    level: "user" as const,
  }));
}

/** (3) The task tool's tokens in the parent's tools array, and reading agent folders that hold nothing. */
async function unusedCost(): Promise<{ taskTokens: number; allTokens: number; loadMs: number }> {
  const registry = new NaviApp({
    home: "/nonexistent",
    workspace: "/nonexistent",
    config: {},
    builtins: builtinTools(),
    env: Deno.env,
  }).registry;
  const all = JSON.stringify(registry.toOpenAITools()).length / 4;
  const task = JSON.stringify(registry.toOpenAITools([registry.get("task")!])).length / 4;
  const folders = missingFolders();
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) await AgentCatalog.load(folders);
  const loadMs = (performance.now() - t0) / 100;
  return { taskTokens: Math.round(task), allTokens: Math.round(all), loadMs };
}

/** The figures above as one table (exits 1 when the fifth run misses 0.8 or a prefix changed). */
async function main(): Promise<void> {
  const general = await cacheRuns("general");
  const explore = await cacheRuns("explore");
  agentName = "explore";
  const seq: number[] = [];
  const par: number[] = [];
  for (let i = 0; i < 3; i++) {
    seq.push(await twoSubagents(1));
    par.push(await twoSubagents(4));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const unused = await unusedCost();
  console.log(`\nsubagents, ${Deno.build.os} ${navigator.hardwareConcurrency} cores\n`);
  console.log("| measure | value |\n| --- | ---: |");
  for (const [name, c] of [["general", general], ["explore", explore]] as const) {
    console.log(`| ${name}: prefix (system prompt + tools array) | ${c.prefixTokens} tokens |`);
    console.log(
      `| ${name}: hit ratio of runs 1-5 in one session | ${c.ratios.map((r) => r.toFixed(3)).join(" · ")} |`,
    );
    console.log(`| ${name}: distinct prefixes over the 5 runs | ${c.prefixes} |`);
  }
  console.log(
    `| two subagents one after the other (max_parallel 1), median of 3 | ${median(seq).toFixed(0)} ms |`,
  );
  console.log(`| two subagents in parallel (max_parallel 4), median of 3 | ${median(par).toFixed(0)} ms |`);
  console.log(`| **parallel / sequential** | **${(median(par) / median(seq)).toFixed(2)}** |`);
  console.log(
    `| task tool in the parent's tools array | ${unused.taskTokens} of ${unused.allTokens} tokens |`,
  );
  console.log(`| reading 4 missing agent folders at start-up | ${unused.loadMs.toFixed(3)} ms |`);
  if (general.ratios[4] < 0.8) {
    console.error(`the fifth run's hit ratio ${general.ratios[4].toFixed(3)} is under 0.8`);
    Deno.exit(1);
  }
  if (general.prefixes !== 1 || explore.prefixes !== 1) {
    console.error("an agent's runs sent different prefixes");
    Deno.exit(1);
  }
}

if (import.meta.main) await main();
else {
  const folders = missingFolders();
  Deno.bench("agents: the built-ins only", { group: "agents", baseline: true }, () => {
    AgentCatalog.builtin();
  });
  Deno.bench("agents: 4 agent folders that do not exist", { group: "agents" }, async () => {
    await AgentCatalog.load(folders);
  });
}
