// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { DEFAULT_INHERITED_ENV_VARS } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolRegistry } from "../../../core/mod.ts";
import { McpManager } from "../../../core/mcp/manager.ts";
import { prespawnStdioServers } from "../../../core/mcp/prespawn.ts";
import { SDK_DEFAULT_ENV } from "../../../core/mcp/stdio_env.ts";
import { serverLogPath } from "../../../core/mcp/stdio_process.ts";
import { MCP_TEST, stdioServer } from "../../support/mcp_manager.ts";
import { assert, assertEquals, runNavi, tempDir, toolContext, until, writeConfig } from "../../helpers.ts";

const alive = (pid: number) => Deno.stat(`/proc/${pid}`).then(() => true, () => false);
const starts = async (home: string, name: string) =>
  (await Deno.readTextFile(serverLogPath(home, name))).split("\n").filter((l) =>
    l.includes("started by navi")
  );

Deno.test("navi's stdio default environment is the MCP SDK's", () => {
  assertEquals([...SDK_DEFAULT_ENV], [...DEFAULT_INHERITED_ENV_VARS]);
});

Deno.test("servers started early are adopted by their connection, not started twice", MCP_TEST, async () => {
  await using home = await tempDir();
  await writeConfig(home.path, {
    mcp_servers: {
      early: stdioServer(),
      off: stdioServer({ enabled: false }),
      web: { url: "http://127.0.0.1:1/mcp" },
    },
  });
  const opts = { home: home.path, workspace: home.path, env: Deno.env };
  const prespawned = prespawnStdioServers(opts);
  assertEquals([...prespawned.keys()], ["early"]);
  const pid = prespawned.get("early")!.pid;
  const registry = new ToolRegistry();
  const m = new McpManager(registry, { early: stdioServer() }, { ...opts, version: "t", prespawned });
  try {
    await m.start();
    assertEquals(m.states()[0].status, "connected");
    assertEquals(
      (await registry.invoke("mcp__early__echo", '{"message":"x"}', toolContext(home.path))).ok,
      true,
    );
    const lines = await starts(home.path, "early");
    assertEquals(lines.length, 1, lines.join("\n"));
    assert(lines[0].endsWith(`(pid ${pid})`), "the early process serves");
  } finally {
    await m.close();
  }
  assert(!(await alive(pid)), "closed with the manager");
});

Deno.test(
  "a server started early for another config is ended and started again as configured",
  MCP_TEST,
  async () => {
    await using home = await tempDir();
    await writeConfig(home.path, { mcp_servers: { s: stdioServer() } });
    const opts = { home: home.path, workspace: home.path, env: Deno.env };
    const prespawned = prespawnStdioServers(opts);
    const stale = prespawned.get("s")!.pid;
    const m = new McpManager(new ToolRegistry(), { s: stdioServer({ env: { CHANGED: "1" } }) }, {
      ...opts,
      version: "t",
      prespawned,
    });
    try {
      await m.start();
      assertEquals(m.states()[0].status, "connected");
      await until(async () => !(await alive(stale)), 3000, "the stale process ended");
      assertEquals((await starts(home.path, "s")).length, 2);
    } finally {
      await m.close();
    }
  },
);

Deno.test("an invalid config ends the servers started before it was validated", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { model: 5, mcp_servers: { s: stdioServer() } });
  const r = await runNavi(["-p", "hi"], { home: home.path });
  assertEquals(r.code, 2);
  assert(r.stderr.includes("config.json: model:"), r.stderr);
  const [line] = await starts(home.path, "s");
  const pid = Number(/pid (\d+)/.exec(line)![1]);
  await until(async () => !(await alive(pid)), 3000, "the early server ended");
});

Deno.test("navi mcp list starts a stdio server once (early); navi sessions never starts it", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { mcp_servers: { s: stdioServer() } });
  const sessions = await runNavi(["sessions"], { home: home.path });
  assertEquals(sessions.code, 0, sessions.stderr);
  assertEquals(await Deno.stat(serverLogPath(home.path, "s")).then(() => true, () => false), false);
  const list = await runNavi(["mcp", "list"], { home: home.path });
  assertEquals(list.code, 0, list.stdout + list.stderr);
  assertEquals((await starts(home.path, "s")).length, 1);
});
