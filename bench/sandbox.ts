// The sandbox's cost per bash command: the built-in bash tool running `true` unconfined and under bubblewrap
// (without network: with the seccomp filter; with network), interleaved, medians of BENCH_RUNS (default 40).
// Also the start-up cost of the sandbox check: a fresh self-test and a cached one.
// `deno run -A bench/sandbox.ts` (part of `deno task bench`).
import { Sandbox, type ToolContext } from "../core/mod.ts";
import bash from "../tools/bash.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 40);
const home = await Deno.makeTempDir({ prefix: "navi-bench-home-" });
const ws = await Deno.makeTempDir({ prefix: "navi-bench-ws-" });
const ctx = (sandbox?: Sandbox): ToolContext => ({
  workspace: ws,
  signal: new AbortController().signal,
  confirm: () => Promise.resolve(false),
  sandbox,
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const fresh = performance.now();
  const closed = new Sandbox({ home, workspace: ws, env: Deno.env });
  const status = await closed.status();
  const freshMs = performance.now() - fresh;
  if (status.state !== "enforced") throw new Error(`sandbox not enforced: ${status.summary}`);
  const cachedAt = performance.now();
  await new Sandbox({ home, workspace: ws, env: Deno.env }).status();
  const cachedMs = performance.now() - cachedAt;
  const open = new Sandbox({ home, workspace: ws, settings: { network: true }, env: Deno.env });
  await open.status();
  const cases: [string, ToolContext][] = [
    ["unconfined", ctx()],
    ["sandboxed, no network (seccomp)", ctx(closed)],
    ["sandboxed, network allowed", ctx(open)],
  ];
  const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  for (let i = 0; i < RUNS + 3; i++) {
    for (const [name, c] of cases) {
      const t = performance.now();
      const r = await bash.run({ command: "true" }, c);
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r)}`);
      if (i >= 3) times.get(name)!.push(performance.now() - t);
    }
  }
  const base = median(times.get("unconfined")!);
  const rows = [
    "| bash `true` via the bash tool | median | overhead | ratio |",
    "| --- | ---: | ---: | ---: |",
  ];
  for (const [name] of cases) {
    const m = median(times.get(name)!);
    rows.push(`| ${name} | ${m.toFixed(1)} ms | ${(m - base).toFixed(1)} ms | ${(m / base).toFixed(2)}x |`);
  }
  console.log(
    `\n${status.summary}, ${RUNS} runs each, interleaved, ${navigator.hardwareConcurrency} cores\n`,
  );
  console.log(rows.join("\n"));
  console.log(
    `\nsandbox check at start-up: self-test ${freshMs.toFixed(0)} ms when it runs, ` +
      `${cachedMs.toFixed(1)} ms from the cache`,
  );
} finally {
  await Deno.remove(home, { recursive: true }).catch(() => {});
  await Deno.remove(ws, { recursive: true }).catch(() => {});
}
