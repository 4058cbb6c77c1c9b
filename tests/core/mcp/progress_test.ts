import type { ToolProgress } from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { MCP_TEST, stdioServer, testManager } from "../../support/mcp_manager.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";

Deno.test(
  "a call reporting progress runs past call_timeout_s up to max_call_s; a silent one stops at call_timeout_s",
  MCP_TEST,
  async () => {
    await using t = await testManager({ t: stdioServer({ call_timeout_s: 0.5, max_call_s: 2.5 }) });
    const seen: ToolProgress[] = [];
    const started = performance.now();
    const long = await t.call("mcp__t__slow", { steps: 8, interval_ms: 150, progress: true }, {
      onProgress: (p) => seen.push(p),
    });
    assertEquals(long, { ok: true, output: "done after 8 steps" });
    assert(performance.now() - started > 1000, "it ran past call_timeout_s");
    // The SDK handles notifications a microtask later than responses, so the last report may land after the
    // result (and is then dropped): all but the last one arrive.
    assert(seen.length >= 7, `${seen.length} progress reports`);
    assertEquals(seen.slice(0, 7).map((p) => p.progress), [1, 2, 3, 4, 5, 6, 7]);
    assertEquals(seen[0], { progress: 1, total: 8, message: "step 1" });

    const silent = await t.call("mcp__t__slow", { steps: 8, interval_ms: 150, progress: false });
    assert(!silent.ok);
    assertMatch(silent.error, /timed out/i);

    const endless = performance.now();
    const tooLong = await t.call("mcp__t__slow", { steps: 40, interval_ms: 150, progress: true });
    assert(!tooLong.ok);
    assertMatch(tooLong.error, /Maximum total timeout exceeded|timed out/i);
    const ms = performance.now() - endless;
    assert(ms > 2400 && ms < 4500, `stopped at max_call_s (${Math.round(ms)} ms)`);
  },
);

Deno.test("-p shows a tool's progress on stderr (a line a second at most, without a terminal)", async () => {
  await using home = await tempDir();
  const llm = startLlmServer([
    { toolCalls: [{ name: "mcp__t__slow", arguments: '{"steps":3,"interval_ms":20,"progress":true}' }] },
    { text: "finished" },
  ]);
  try {
    await writeConfig(home.path, llmConfig(llm.url, { mcp_servers: { t: stdioServer() } }));
    const r = await runNavi(["-p", "go", "--approval", "auto"], { home: home.path });
    assertEquals([r.code, r.stdout], [0, "finished\n"], r.stderr);
    assertMatch(
      r.stderr,
      /● mcp__t__slow[^\n]*\n {2}… 1\/3 step 1\n {2}⎿ ok/,
    );
  } finally {
    await llm.close();
  }
});
