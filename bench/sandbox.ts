// The sandbox's cost per bash command: the built-in bash tool running `true` unconfined and under bubblewrap
// (without network: a network namespace of its own per command, or the session's shared one joined with
// nsenter; with network), interleaved, medians of BENCH_RUNS (default 40). Also the start-up cost of the
// sandbox check (a fresh self-test and a cached one), of a session's network namespace (its holder process)
// and of the orphan clean-up at start-up when there is nothing to clean.
// `deno run -A bench/sandbox.ts` (part of `deno task bench`).
import { cleanOrphans, Sandbox, type ToolContext } from "../core/mod.ts";
import bash from "../tools/bash.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 40);
const home = await Deno.makeTempDir({ prefix: "navi-bench-home-" });
const ws = await Deno.makeTempDir({ prefix: "navi-bench-ws-" });
const ctx = (sandbox?: ToolContext["sandbox"]): ToolContext => ({
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
  const holderStarts: number[] = [];
  for (let i = 0; i < 10; i++) {
    const net = (await closed.network())!;
    const t = performance.now();
    const entry = await net.enter();
    holderStarts.push(performance.now() - t);
    await net.close();
    if (!("prefix" in entry)) throw new Error(`no session network: ${entry.error}`);
  }
  const session = closed.session();
  await bash.run({ command: "true" }, ctx(session));
  const cases: [string, ToolContext][] = [
    ["unconfined", ctx()],
    ["sandboxed, no network, own namespace per command", ctx(closed)],
    ["sandboxed, no network, the session's namespace (nsenter)", ctx(session)],
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
  await session.close();
  const cleanups: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await cleanOrphans(home);
    cleanups.push(performance.now() - t);
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
  console.log(
    `a session's network namespace: ${
      median(holderStarts).toFixed(1)
    } ms to start its holder (median of 10), ` +
      "once per session, with its first command without network",
  );
  console.log(
    `orphan clean-up at start-up with nothing to clean: ${median(cleanups).toFixed(3)} ms (median of 50)`,
  );
} finally {
  await Deno.remove(home, { recursive: true }).catch(() => {});
  await Deno.remove(ws, { recursive: true }).catch(() => {});
}
