// Whole-process timings, each as a ratio to `deno run` of a hello-world file measured in the same run, then the
// targets of issue 30 (bench/targets.ts: one-shot start-up idle and with one core busy, CPU, the clone, 100
// plugins, subsystems on/off), each with its ratio and PASS/MISS. `deno run -A bench/process.ts` (part of
// `deno task bench`). Uses hyperfine when installed, else (or with BENCH_LOOP=1) a loop of interleaved rounds.
import { SERVER_EVERYTHING } from "../tests/support/warm.ts";
import { join } from "node:path";
import { startLlmServer } from "../tests/support/llm_server.ts";
import { buildBundle } from "../scripts/bundle.ts";
import { median, spinOneCore, SUBSYSTEMS, type Target, targetLine, timed, tracedPhase } from "./targets.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DENO = Deno.execPath();
const NAVI = [DENO, "run", "-A", "--unstable-worker-options", join(ROOT, "main.ts")];
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 10);
// The single-file build (`deno task bundle`), run as installed: outside any project, so without deno.json.
const bundleDir = await Deno.makeTempDir({ prefix: "navi-bench-bundle-" });
const bundle = await buildBundle(ROOT, join(bundleDir, "navi.js"));
const BUNDLE = [DENO, "run", "-A", "--unstable-worker-options", "--no-config", bundle.file];
const EVERYTHING = [DENO, "run", "-A", SERVER_EVERYTHING, "stdio"];
const LIST_TOOLS = [DENO, "run", "-A", join(ROOT, "bench/fixtures/list_tools.ts")];
const TEST_SERVER = [DENO, "run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")];

interface Case {
  name: string;
  argv: string[];
  home?: string;
  /** A directory removed before every run (a cold plugin cache). */
  fresh?: string;
  /** The working directory (default: this process's). */
  cwd?: string;
}

async function home(config: Record<string, unknown>, plugins = 0, noCodeCache = false): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "navi-bench-" });
  // A file where the bundle's code cache directory would be: the bundle compiles its chunks on every run.
  if (noCodeCache) await Deno.writeTextFile(join(dir, "cache"), "");
  await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config));
  if (plugins) {
    await Deno.mkdir(join(dir, "plugins"));
    for (let i = 0; i < plugins; i++) {
      await Deno.writeTextFile(
        join(dir, "plugins", `p${String(i).padStart(3, "0")}.ts`),
        `import type { NaviPluginApi } from "./navi.d.ts";\ninterface Args { text: string }\n` +
          `export default function register(navi: NaviPluginApi): void {\n  navi.registerTool({\n` +
          `    name: "plugin_tool_${i}",\n    description: "- Plugin tool ${i}: upper-cases a text.",\n` +
          `    parameters: navi.z.object({ text: navi.z.string() }),\n    approval: "read_only",\n` +
          `    handler: ({ text }: Args) => ({ ok: true, text: text.toUpperCase() }),\n  });\n}\n`,
      );
    }
  }
  return dir;
}

const servers = (n: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`s${i}`, { command: TEST_SERVER[0], args: TEST_SERVER.slice(1) }]),
  );

// Deno.Command#output() throws synchronously when the program is missing. BENCH_LOOP=1 takes the loop even
// with hyperfine installed: its interleaved rounds keep ratios fair on a machine whose load changes.
const hasHyperfine = !Deno.env.get("BENCH_LOOP") &&
  await (async () =>
    (await new Deno.Command("hyperfine", { args: ["--version"], stdout: "null", stderr: "null" }).output())
      .success)()
    .catch(() => false);

const envOf = (c: Case) => ({
  ...Deno.env.toObject(),
  NAVI_HOME: c.home ?? "/nonexistent-navi-home",
  NO_COLOR: "1",
});

async function hyperfine(c: Case): Promise<number> {
  const out = await Deno.makeTempFile({ suffix: ".json" });
  const quoted = c.argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const r = await new Deno.Command("hyperfine", {
    args: [
      ...["-N", "-w", "2", "-r", String(RUNS), "--export-json", out, "--output", "null"],
      ...(c.fresh ? ["--prepare", `rm -rf '${c.fresh}'`] : []),
      quoted,
    ],
    env: envOf(c),
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!r.success) throw new Error(`${c.name}: ${new TextDecoder().decode(r.stderr)}`);
  return JSON.parse(await Deno.readTextFile(out)).results[0].median * 1000;
}

/** Median wall time of each case over RUNS rounds (after 2 warm-up rounds); each round runs every case once,
 * so that a change in the machine's load falls on all cases alike. */
async function loop(all: Case[], runs = RUNS): Promise<number[]> {
  const times: number[][] = all.map(() => []);
  for (let round = 0; round < runs + 2; round++) {
    for (const [i, c] of all.entries()) {
      if (c.fresh) await Deno.remove(c.fresh, { recursive: true }).catch(() => {});
      const t = performance.now();
      const r = await new Deno.Command(c.argv[0], {
        args: c.argv.slice(1),
        env: envOf(c),
        cwd: c.cwd,
        stdout: "null",
        stderr: "null",
      }).output();
      if (!r.success) throw new Error(`${c.name} failed`);
      if (round >= 2) times[i].push(performance.now() - t);
    }
  }
  return times.map((ts) => ts.sort((a, b) => a - b)[Math.floor(ts.length / 2)]);
}

async function measure(all: Case[]): Promise<number[]> {
  if (!hasHyperfine) return await loop(all);
  const out: number[] = [];
  for (const c of all) {
    out.push(await hyperfine(c));
    console.error(`measured ${c.name}`);
  }
  return out;
}

/** RSS of an idle REPL (stdin open, nothing typed) 2 s after start, median of 3, in MB. */
async function idleRss(dir: string): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const child = new Deno.Command(NAVI[0], {
      args: NAVI.slice(1),
      env: { ...Deno.env.toObject(), NAVI_HOME: dir, NO_COLOR: "1" },
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await new Promise((r) => setTimeout(r, 2000));
    const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
    out.push(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
    await child.stdin.close();
    await child.status;
  }
  return out.sort((a, b) => a - b)[1];
}

const llm = startLlmServer((_i, body) => {
  const last = (body.messages as { role: string }[]).at(-1)!;
  return last.role === "tool"
    ? { text: "The echo tool answered." }
    : { toolCalls: [{ name: "mcp__everything__echo", arguments: '{"message":"bench"}' }] };
});
const provider = { providers: { bench: { base_url: llm.url, api_key: "bench" } }, model: "bench-model" };

const everything = {
  ...provider,
  mcp_servers: { everything: { command: EVERYTHING[0], args: EVERYTHING.slice(1) } },
};
const plugins100 = await home({}, 100);
const coldPlugins100 = await home({}, 100);
const coldPlugins100b = await home({}, 100);
const cases: Case[] = [
  { name: "navi --version", argv: [...NAVI, "--version"] },
  { name: "navi.js --version (bundle)", argv: [...BUNDLE, "--version"] },
  { name: "navi tools --json, 0 plugins", argv: [...NAVI, "tools", "--json"], home: await home({}) },
  { name: "navi.js tools --json, 0 plugins", argv: [...BUNDLE, "tools", "--json"], home: await home({}) },
  {
    name: "navi.js tools --json, 0 plugins, no code cache",
    argv: [...BUNDLE, "tools", "--json"],
    home: await home({}, 0, true),
  },
  {
    name: "navi tools --json, 100 plugins, warm cache",
    argv: [...NAVI, "tools", "--json"],
    home: plugins100,
  },
  {
    name: "navi tools --json, 100 plugins, cold (first run: no cache)",
    argv: [...NAVI, "tools", "--json"],
    home: coldPlugins100,
    fresh: join(coldPlugins100, "cache"),
  },
  {
    name: "navi.js tools --json, 100 plugins, cold (first run: no cache)",
    argv: [...BUNDLE, "tools", "--json"],
    home: coldPlugins100b,
    fresh: join(coldPlugins100b, "cache"),
  },
  {
    name: "navi mcp list, 1 stdio server",
    argv: [...NAVI, "mcp", "list"],
    home: await home({ mcp_servers: servers(1) }),
  },
  {
    name: "navi mcp list, 5 stdio servers",
    argv: [...NAVI, "mcp", "list"],
    home: await home({ mcp_servers: servers(5) }),
  },
  {
    name: "navi -p, one MCP echo call (server-everything)",
    argv: [...NAVI, "-p", "echo bench", "--approval", "auto"],
    home: await home(everything),
  },
  {
    name: "navi.js -p, one MCP echo call (server-everything)",
    argv: [...BUNDLE, "-p", "echo bench", "--approval", "auto"],
    home: await home(everything),
  },
];

/** A workspace of its own (a git root with nothing else): the targets do not read this repository's project. */
async function workspace(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "navi-bench-ws-" });
  await Deno.mkdir(join(dir, ".git"));
  return dir;
}

interface OneShot {
  serverMs: number;
  serverCpu: number;
  bundleWall: number;
  bundleCpu: number;
  cloneWall: number;
  cloneCpu: number;
}

/**
 * The one-shot MCP task (one server-everything echo call) by the single file and by the clone, right after
 * the server alone (bench/fixtures/list_tools.ts: spawn to its tools/list answer, and its CPU until then),
 * run by run; with `busy`, a spinning process holds one core throughout.
 */
async function oneShot(naviHome: string, busy: boolean): Promise<OneShot> {
  const ws = await workspace();
  const spinner = busy ? spinOneCore() : undefined;
  const rows: number[][] = [[], [], [], [], [], []];
  const p = ["-p", "echo bench", "--approval", "auto"];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const server = JSON.parse((await timed({ argv: LIST_TOOLS, env: {}, cwd: ws })).stdout);
      const b = await timed({ argv: [...BUNDLE, ...p], env: { NAVI_HOME: naviHome }, cwd: ws });
      const c = await timed({ argv: [...NAVI, ...p], env: { NAVI_HOME: naviHome }, cwd: ws });
      if (i === 0) continue;
      [server.ms, server.cpu, b.wall, b.cpu, c.wall, c.cpu].forEach((v, j) => rows[j].push(v));
    }
  } finally {
    spinner?.kill("SIGKILL");
    await spinner?.status;
    await Deno.remove(ws, { recursive: true });
  }
  const [serverMs, serverCpu, bundleWall, bundleCpu, cloneWall, cloneCpu] = rows.map(median);
  return { serverMs, serverCpu, bundleWall, bundleCpu, cloneWall, cloneCpu };
}

function oneShotTargets(o: OneShot, load: string): Target[] {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  return [
    {
      name: `one-shot wall, single file, ${load}`,
      measured: o.bundleWall,
      limit: o.serverMs + 100,
      detail: `${ms(o.bundleWall)} <= server spawn-to-tools/list ${ms(o.serverMs)} + 100 ms`,
    },
    {
      name: `one-shot CPU (navi + server), single file, ${load}`,
      measured: o.bundleCpu,
      limit: 1.3 * o.serverCpu,
      detail: `${ms(o.bundleCpu)} <= 1.3 x server alone ${ms(o.serverCpu)} (${
        (o.bundleCpu / o.serverCpu).toFixed(2)
      }x)`,
    },
    {
      name: `one-shot wall, clone within 1.3x of the single file, ${load}`,
      measured: o.cloneWall,
      limit: 1.3 * o.bundleWall,
      detail: `${ms(o.cloneWall)} (CPU ${ms(o.cloneCpu)}) <= 1.3 x ${ms(o.bundleWall)} (${
        (o.cloneWall / o.bundleWall).toFixed(2)
      }x)`,
    },
  ];
}

/** The first REPL prompt with 100 plugins and no definition cache (the trace's `first prompt`), median. */
async function firstPrompt(argv: string[], naviHome: string): Promise<number> {
  const ws = await workspace();
  const out: number[] = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      await Deno.remove(join(naviHome, "cache"), { recursive: true }).catch(() => {});
      const r = await timed({
        argv,
        env: { NAVI_HOME: naviHome, NAVI_TRACE: "startup" },
        cwd: ws,
        stdin: "/exit\n",
      });
      const at = tracedPhase(r.stderr, "first prompt");
      if (at === undefined) throw new Error(`no first prompt traced:\n${r.stderr.slice(-400)}`);
      if (i > 0) out.push(at);
    }
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
  return median(out);
}

/** `navi.js -p` (a text answer, no MCP) in a workspace without, then with each subsystem's files. */
async function subsystemTargets(naviHome: string): Promise<Target[]> {
  const off = await workspace();
  const ons = await Promise.all(SUBSYSTEMS.map(async (s) => {
    const ws = await workspace();
    await s.on(ws);
    return ws;
  }));
  const argv = [...BUNDLE, "-p", "hello"];
  try {
    const cases: Case[] = [off, ...ons].map((cwd, i) => ({
      name: `subsystem ${i}`,
      argv,
      home: naviHome,
      cwd,
    }));
    const [none, ...times] = await loop(cases, RUNS * 2);
    return SUBSYSTEMS.map((s, i) => ({
      name: `${s.name} on / off, navi.js -p`,
      measured: times[i],
      limit: 1.02 * none,
      detail: `${times[i].toFixed(0)} ms on, ${none.toFixed(0)} ms off (${
        (times[i] / none).toFixed(3)
      }x; limit 1.02x)`,
    }));
  } finally {
    for (const d of [off, ...ons]) await Deno.remove(d, { recursive: true });
  }
}

const plain = startLlmServer(() => ({ text: "hi" }));
try {
  const hello = { name: "hello", argv: [DENO, "run", "-A", join(ROOT, "bench/fixtures/hello.ts")] };
  const [baseline, ...times] = await measure([hello, ...cases]);
  const rows = [`| command | median | ratio to hello-world |`, `| --- | ---: | ---: |`];
  rows.push(`| deno run hello.ts (baseline) | ${baseline.toFixed(0)} ms | 1.00x |`);
  cases.forEach((c, i) =>
    rows.push(`| ${c.name} | ${times[i].toFixed(0)} ms | ${(times[i] / baseline).toFixed(2)}x |`)
  );
  console.log(
    `\n${
      hasHyperfine ? "hyperfine" : "loop (interleaved rounds)"
    }, ${RUNS} runs each, ${Deno.build.os} ${navigator.hardwareConcurrency} cores, load average ${loadAverage()}\n`,
  );
  const at = (name: string) => times[cases.findIndex((c) => c.name === name)];
  const warm = at("navi tools --json, 100 plugins, warm cache");
  const none = at("navi tools --json, 0 plugins");
  const cold = at("navi tools --json, 100 plugins, cold (first run: no cache)");
  const [idleNone, idleHundred] = [await idleRss(await home({})), await idleRss(plugins100)];
  rows.push(
    "",
    `idle REPL memory (RSS, median of 3): 0 plugins ${idleNone.toFixed(1)} MB, 100 plugins (warm cache) ` +
      `${idleHundred.toFixed(1)} MB: +${(idleHundred - idleNone).toFixed(1)} MB`,
  );
  console.log(rows.join("\n"));
  console.log(`\nnavi.js (deno task bundle): ${(bundle.sizes.total / 1024).toFixed(0)} KB`);

  const oneShotHome = cases.find((c) => c.name.startsWith("navi.js -p"))!.home!;
  const idle = await oneShot(oneShotHome, false);
  const busy = await oneShot(oneShotHome, true);
  const prompt = await firstPrompt(NAVI, coldPlugins100);
  const plainHome = await home({
    providers: { bench: { base_url: plain.url, api_key: "bench" } },
    model: "m",
  });
  cases.push({ name: "plain -p", argv: [], home: plainHome });
  const targets: Target[] = [
    ...oneShotTargets(idle, "idle"),
    ...oneShotTargets(busy, "one core busy"),
    {
      name: "100 plugins, no definition cache: navi tools --json",
      measured: cold,
      limit: 1500,
      detail: `${cold.toFixed(0)} ms <= 1500 ms`,
    },
    {
      name: "100 plugins, no definition cache: first REPL prompt (trace)",
      measured: prompt,
      limit: 2000,
      detail: `${prompt.toFixed(0)} ms <= 2000 ms`,
    },
    {
      name: "100 plugins, warm cache: tools --json against 0 plugins",
      measured: warm,
      limit: 1.1 * none,
      detail: `${warm.toFixed(0)} ms <= 1.1 x ${none.toFixed(0)} ms (${(warm / none).toFixed(2)}x)`,
    },
    ...await subsystemTargets(plainHome),
  ];
  console.log(`\nTargets (issue 30), ${RUNS} interleaved runs each, load average ${loadAverage()}:`);
  for (const t of targets) console.log(targetLine(t));
} finally {
  await Deno.remove(bundleDir, { recursive: true }).catch(() => {});
  await llm.close();
  await plain.close();
  for (const c of cases) if (c.home) await Deno.remove(c.home, { recursive: true }).catch(() => {});
}

function loadAverage(): string {
  return Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
}
