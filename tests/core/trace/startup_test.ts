// NAVI_TRACE=startup: the phases of a real `navi -p` run (scripted model server, one stdio MCP server), in
// order, on stderr; and the trace object itself under an injected clock.
import { join } from "node:path";
import { STARTUP_PHASES, StartupTrace } from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { spawnNavi } from "../../support/navi_process.ts";
import { assertEquals, keyedLlmConfig, ROOT, tempDir, writeConfig } from "../../helpers.ts";

const KEY = "sk-trace-VERY-SECRET-0123456789";
const TRACE_LINE = /^navi: trace startup +(\d+) ms (.+)$/;

function traced(stderr: string): { phase: string; ms: number }[] {
  return stderr.split("\n").flatMap((line) => {
    const m = TRACE_LINE.exec(line);
    return m ? [{ phase: m[2], ms: Number(m[1]) }] : [];
  });
}

Deno.test("NAVI_TRACE=startup: -p prints every phase once, in order, on stderr; stdout keeps only the answer", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{ text: "traced answer" }, { text: "traced answer" }]);
  try {
    await writeConfig(
      home.path,
      keyedLlmConfig(server.url, {
        mcp_servers: {
          t: {
            command: Deno.execPath(),
            args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")],
          },
        },
      }),
    );
    const env = { TEST_LLM_KEY: KEY, NAVI_TRACE: "startup" };
    const r = await spawnNavi(["-p", "hello"], { home: home.path, env }).done;
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "traced answer\n");
    const lines = traced(r.stderr);
    assertEquals(lines.map((l) => l.phase), STARTUP_PHASES.filter((p) => p !== "first prompt"));
    assertEquals(lines.every((l, i) => i === 0 || l.ms >= lines[i - 1].ms), true, r.stderr);
    assertEquals(r.stderr.includes(KEY), false);
    const plain = await spawnNavi(["-p", "hello"], { home: home.path, env: { TEST_LLM_KEY: KEY } }).done;
    assertEquals(plain.code, 0, plain.stderr);
    assertEquals(traced(plain.stderr), [], "without NAVI_TRACE nothing is printed");
  } finally {
    await server.close();
  }
});

Deno.test("StartupTrace keeps each phase's first mark, orders by time, and records nothing when disabled", () => {
  let now = 10;
  const trace = new StartupTrace({ enabled: true, now: () => now });
  trace.mark("config read");
  now = 25;
  trace.mark("modules loaded");
  trace.mark("config read");
  now = 40;
  trace.mark("exit");
  assertEquals(trace.entries(), [
    { phase: "config read", ms: 10 },
    { phase: "modules loaded", ms: 25 },
    { phase: "exit", ms: 40 },
  ]);
  const written: string[] = [];
  trace.print({ write: (t) => void written.push(t) });
  assertEquals(written, [
    "navi: trace startup    10 ms config read\n",
    "navi: trace startup    25 ms modules loaded\n",
    "navi: trace startup    40 ms exit\n",
  ]);
  const off = new StartupTrace({ enabled: false, now: () => now });
  off.mark("exit");
  assertEquals(off.entries(), []);
  assertEquals(StartupTrace.fromEnv(new Map([["NAVI_TRACE", "x, startup"]])).enabled, true);
  assertEquals(StartupTrace.fromEnv(new Map()).enabled, false);
});
