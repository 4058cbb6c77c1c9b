import { SERVER_EVERYTHING } from "../../support/warm.ts";
import { join } from "node:path";
import { type McpServerConfig, ToolPool, ToolRegistry } from "../../../core/mod.ts";
import { backoffDelay, DEFAULT_TIMING } from "../../../core/mcp/reconnect.ts";
import { exposedName } from "../../../core/mcp/convert.ts";
import { McpManager } from "../../../core/mcp/manager.ts";
import { startMcpHttp } from "../../support/mcp_http.ts";
import { FakeClock } from "../../support/clock.ts";
import { assert, assertEquals, assertMatch, ROOT, tempDir, toolContext, until } from "../../helpers.ts";

const SERVER = join(ROOT, "tests", "support", "mcp_test_server.ts");
const stdio = (mode = "stdio", extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  command: Deno.execPath(),
  args: ["run", "-A", SERVER, mode],
  ...extra,
});
const opts = { sanitizeOps: false, sanitizeResources: false };

async function manager(
  servers: Record<string, McpServerConfig>,
  env: Record<string, string> = {},
  elicit?: ConstructorParameters<typeof McpManager>[2]["elicit"],
  clock?: FakeClock,
) {
  const home = await tempDir();
  const registry = new ToolRegistry();
  const m = new McpManager(registry, servers, {
    home: home.path,
    workspace: home.path,
    version: "test",
    env: { get: (k) => env[k] ?? Deno.env.get(k), toObject: () => ({ ...Deno.env.toObject(), ...env }) },
    elicit,
    timing: { reconnectBaseMs: 50, reconnectMaxMs: 200, breakerCooldownMs: 400 },
    clock,
  });
  await m.start();
  return {
    m,
    registry,
    home: home.path,
    call: (name: string, args: Record<string, unknown> = {}) =>
      registry.invoke(name, JSON.stringify(args), toolContext(home.path)),
    async [Symbol.asyncDispose]() {
      await m.close();
      await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test("reconnect backoff doubles from 1 s, is capped at 60 s, and is jittered into [50%, 100%]", () => {
  const at = (attempt: number, r: number) => backoffDelay(attempt, DEFAULT_TIMING, () => r);
  assertEquals([0, 1, 2, 3].map((a) => at(a, 1)), [1000, 2000, 4000, 8000]);
  assertEquals(at(10, 1), 60_000);
  assertEquals(at(0, 0), 500);
  assertEquals(at(10, 0), 30_000);
  assertEquals(DEFAULT_TIMING.maxReconnects, 8);
});

Deno.test("names: mcp__server__tool, sanitized, long names shortened with a hash", () => {
  assertEquals(exposedName("fs", "read file"), "mcp__fs__read_file");
  const long = exposedName("srv", "a".repeat(100));
  assertEquals(long.length, 64);
  assert(long !== exposedName("srv", "a".repeat(99) + "b"), "unique");
  assertEquals(long, exposedName("srv", "a".repeat(100)), "deterministic");
});

Deno.test(
  "a stdio server's tools are bridged with approval classes and results converted",
  opts,
  async () => {
    await using t = await manager({ t: stdio() });
    assertEquals(t.m.states()[0].status, "connected");
    const src = (n: string) => t.registry.get(n)?.approval;
    assertEquals([src("mcp__t__echo"), src("mcp__t__add"), src("mcp__t__fail")], [
      "read_only",
      "write",
      "command",
    ]);
    assert(!t.registry.has("mcp__t__extra"), "disabled tools are not offered");
    const odd = t.registry.list().find((x) => x.name.startsWith("mcp__t__tool_with_spaces"));
    assert(odd && odd.name.length === 64);
    assertEquals(await t.call("mcp__t__echo", { message: "hi" }), { ok: true, output: "echo: hi" });
    assertEquals(await t.call("mcp__t__add", { a: 2, b: 3 }), {
      ok: true,
      output: "5",
      structured: { sum: 5 },
    });
    assertEquals(await t.call("mcp__t__fail"), { ok: false, error: "it went wrong" });
    const bad = await t.call("mcp__t__add", { a: "x" });
    assert(!bad.ok);
    const img = await t.call("mcp__t__image");
    assert(img.ok && img._multimodal === true);
    assertEquals(img._image_data_url, "data:image/png;base64,iVBORw0KGgo=");
    const log = await Deno.readTextFile(join(t.home, "logs", "mcp-t.log"));
    assertMatch(log, /test server: started/);
  },
);

Deno.test(
  "elicitation is declined without a user, answered with one; roots/list is the workspace",
  opts,
  async () => {
    {
      await using t = await manager({ t: stdio() });
      assertEquals(await t.call("mcp__t__ask"), { ok: true, output: '{"action":"decline"}' });
      const roots = JSON.parse((await t.call("mcp__t__roots")).output as string);
      assertEquals(roots, [{ uri: `file://${t.home}`, name: t.home.split("/").pop() }]);
    }
    const asked: string[] = [];
    await using t = await manager({ t: stdio() }, {}, ({ message }) => {
      asked.push(message);
      return Promise.resolve({ action: "accept", content: { name: "Grace" } });
    });
    assertEquals(await t.call("mcp__t__ask"), {
      ok: true,
      output: '{"action":"accept","content":{"name":"Grace"}}',
    });
    assertEquals(asked, ["Your name?"]);
  },
);

Deno.test("tools/list_changed: a new tool is registered and appended at the next request", opts, async () => {
  await using t = await manager({ t: stdio() });
  const pool = new ToolPool(t.registry, { readOnly: () => false });
  const before = pool.sync().list;
  assertEquals((await t.call("mcp__t__enable_extra")).ok, true);
  await until(() => t.registry.has("mcp__t__extra"));
  const after = pool.sync().list;
  assertEquals(after.at(-1)?.function.name, "mcp__t__extra");
  assert(pool.json(after).startsWith(pool.json(before).slice(0, -1)), "previous list is a prefix");
  assertEquals(await t.call("mcp__t__extra"), { ok: true, output: "extra works" });
});

Deno.test(
  "a killed server: clear not-connected errors, then its tools work again after the reconnect",
  opts,
  async () => {
    await using t = await manager({ t: stdio() });
    const pid = Number((await t.call("mcp__t__pid")).output);
    Deno.kill(pid, "SIGKILL");
    await until(() => t.m.states()[0].status !== "connected");
    const down = await t.call("mcp__t__echo", { message: "x" });
    assert(!down.ok);
    assertMatch(down.error, /^MCP server 't' is not connected/);
    assert(t.registry.has("mcp__t__echo"), "tools stay offered while reconnecting");
    await until(() => t.m.states()[0].status === "connected");
    assertEquals(await t.call("mcp__t__echo", { message: "back" }), { ok: true, output: "echo: back" });
    assert(Number((await t.call("mcp__t__pid")).output) !== pid, "a new process");
  },
);

Deno.test("a server that crashes during a call returns an error and reconnects", opts, async () => {
  await using t = await manager({ t: stdio() });
  const r = await t.call("mcp__t__crash");
  assert(!r.ok);
  assertMatch(r.error, /MCP server 't'/);
  await until(() => t.m.states()[0].status === "connected");
  assertEquals((await t.call("mcp__t__echo", { message: "ok" })).ok, true);
});

Deno.test(
  "a hanging tool times out; 3 failures open the circuit breaker, a trial call closes it",
  opts,
  async () => {
    const clock = new FakeClock();
    await using t = await manager({ t: stdio("stdio", { call_timeout_s: 0.2 }) }, {}, undefined, clock);
    for (let i = 0; i < 3; i++) {
      const r = await t.call("mcp__t__hang");
      assert(!r.ok);
      assertMatch(r.error, /timed out|Request timed out/i);
    }
    const fast = await t.call("mcp__t__echo", { message: "x" });
    assert(!fast.ok);
    assertMatch(
      fast.error,
      /^MCP server 't' is unavailable: 3 calls failed in a row/,
      "refused without a call",
    );
    clock.advance(399);
    const early = await t.call("mcp__t__echo", { message: "x" });
    assertMatch(
      early.ok ? "" : early.error,
      /is unavailable: 3 calls failed in a row/,
      "still open 1 ms before the cooldown ends",
    );
    clock.advance(1);
    const failedTrial = await t.call("mcp__t__hang");
    assertMatch(
      failedTrial.ok ? "" : failedTrial.error,
      /timed out/i,
      "after the cooldown one trial call goes through",
    );
    const reopened = await t.call("mcp__t__echo", { message: "x" });
    assertMatch(
      reopened.ok ? "" : reopened.error,
      /is unavailable/,
      "a failed trial opens the circuit again",
    );
    clock.advance(400);
    assertEquals(await t.call("mcp__t__echo", { message: "trial" }), { ok: true, output: "echo: trial" });
    assertEquals((await t.call("mcp__t__echo", { message: "closed" })).ok, true);
  },
);

Deno.test("a server that exits at start-up fails alone; disabled servers stay off", opts, async () => {
  await using t = await manager({
    bad: stdio("exit"),
    good: stdio(),
    off: stdio("stdio", { enabled: false }),
  });
  const states = Object.fromEntries(t.m.states().map((s) => [s.name, s]));
  assertEquals(states.good.status, "connected");
  assert(states.bad.status === "failed" || states.bad.status === "connecting");
  assertEquals(states.off.status, "disabled");
  const log = await Deno.readTextFile(join(t.home, "logs", "mcp-bad.log"));
  assertMatch(log, /refusing to start/);
});

Deno.test("Streamable HTTP with headers from the environment", opts, async () => {
  const http = startMcpHttp();
  try {
    await using t = await manager(
      { web: { url: http.url, headers: { Authorization: "$WEB_TOKEN" } } },
      { WEB_TOKEN: "Bearer tok-123" },
    );
    assertEquals(t.m.states()[0].status, "connected");
    assertEquals(await t.call("mcp__web__echo", { message: "over http" }), {
      ok: true,
      output: "echo: over http",
    });
    assertEquals(http.headers[0].get("authorization"), "Bearer tok-123");
  } finally {
    await http.close();
  }
});

Deno.test("the reference server-everything over stdio", opts, async () => {
  await using t = await manager({
    everything: {
      command: Deno.execPath(),
      args: ["run", "-A", SERVER_EVERYTHING, "stdio"],
    },
  });
  const s = t.m.states()[0];
  assertEquals(s.status, "connected", s.error);
  assert(s.tools >= 10);
  assertEquals(await t.call("mcp__everything__echo", { message: "hello" }), {
    ok: true,
    output: "Echo: hello",
  });
  const sum = await t.call("mcp__everything__get-sum", { a: 2, b: 5 });
  assert(sum.ok && String(sum.output).includes("7"));
});
