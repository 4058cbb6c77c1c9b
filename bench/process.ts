// Whole-process timings, each as a ratio to `deno run` of a hello-world file measured in the same run.
// `deno run -A bench/process.ts` (part of `deno task bench`). Uses hyperfine when installed, else (or with
// BENCH_LOOP=1) a loop of interleaved rounds.
import { SERVER_EVERYTHING } from "../tests/support/warm.ts";
import { join } from "node:path";
import { startLlmServer } from "../tests/support/llm_server.ts";
import { buildBundle } from "../scripts/bundle.ts";

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
async function loop(all: Case[]): Promise<number[]> {
  const times: number[][] = all.map(() => []);
  for (let round = 0; round < RUNS + 2; round++) {
    for (const [i, c] of all.entries()) {
      if (c.fresh) await Deno.remove(c.fresh, { recursive: true }).catch(() => {});
      const t = performance.now();
      const r = await new Deno.Command(c.argv[0], {
        args: c.argv.slice(1),
        env: envOf(c),
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The start-up target: `navi -p` with one server-everything call against the server's own time from spawn to
 * its tools/list answer, interleaved run by run so that both see the same machine load.
 */
async function startupFigure(c: Case): Promise<string> {
  const env = { ...Deno.env.toObject(), NAVI_HOME: c.home!, NO_COLOR: "1" };
  const navi: number[] = [];
  const server: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const fixture = await new Deno.Command(LIST_TOOLS[0], {
      args: LIST_TOOLS.slice(1),
      stdout: "piped",
      stderr: "null",
    })
      .output();
    const t = performance.now();
    const r = await new Deno.Command(c.argv[0], {
      args: c.argv.slice(1),
      env,
      stdout: "null",
      stderr: "null",
    }).output();
    const ms = performance.now() - t;
    if (!r.success || !fixture.success) throw new Error("start-up figure: a run failed");
    if (i === 0) continue;
    navi.push(ms);
    server.push(JSON.parse(new TextDecoder().decode(fixture.stdout)).ms);
  }
  const [n, s] = [median(navi), median(server)];
  return `start-up (${RUNS} interleaved runs): navi -p with one server-everything call ${n.toFixed(0)} ms; ` +
    `server-everything alone, spawn to tools/list answered ${s.toFixed(0)} ms; difference ${
      (n - s).toFixed(0)
    } ms ` +
    `(target: at most 300 ms)`;
}

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
    }, ${RUNS} runs each, ${Deno.build.os} ${navigator.hardwareConcurrency} cores\n`,
  );
  const warm = times[cases.findIndex((c) => c.name.includes("100 plugins, warm"))];
  const none = times[cases.findIndex((c) => c.name === "navi tools --json, 0 plugins")];
  rows.push("", `tools --json with 100 plugins (warm cache) / with 0 plugins: ${(warm / none).toFixed(2)}x`);
  const [idleNone, idleHundred] = [await idleRss(await home({})), await idleRss(plugins100)];
  rows.push(
    `idle REPL memory (RSS, median of 3): 0 plugins ${idleNone.toFixed(1)} MB, 100 plugins (warm cache) ` +
      `${idleHundred.toFixed(1)} MB: +${(idleHundred - idleNone).toFixed(1)} MB`,
  );
  console.log(rows.join("\n"));
  console.log(`\nnavi.js (deno task bundle): ${(bundle.sizes.total / 1024).toFixed(0)} KB`);
  const p = cases.find((c) => c.name === "navi -p, one MCP echo call (server-everything)")!;
  console.log(`\n${await startupFigure(p)}`);
} finally {
  await Deno.remove(bundleDir, { recursive: true }).catch(() => {});
  await llm.close();
  for (const c of cases) if (c.home) await Deno.remove(c.home, { recursive: true }).catch(() => {});
}
