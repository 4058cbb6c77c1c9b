import { SERVER_EVERYTHING } from "../../../support/warm.ts";
import { join } from "node:path";
import { startLlmServer } from "../../../support/llm_server.ts";
import { rawField } from "../../../support/raw_json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  ROOT,
  runNavi,
  tempDir,
  textUnder,
  writeConfig,
} from "../../../helpers.ts";
import { startMcpHttp } from "../../../support/mcp_http.ts";

const EVERYTHING = ["run", "-A", SERVER_EVERYTHING, "stdio"];
const TEST_SERVER = ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")];

Deno.test("server-everything: mcp list, tools --json and -p calling its echo tool", async () => {
  await using home = await tempDir();
  const add = await runNavi(["mcp", "add", "everything", "--", Deno.execPath(), ...EVERYTHING], {
    home: home.path,
  });
  assertEquals(add.code, 0, add.stderr);
  const list = await runNavi(["mcp", "list"], { home: home.path });
  assertEquals(list.code, 0, list.stderr);
  assertMatch(list.stdout, /everything\s+stdio\s+connected\s+\d+/);
  const tools = await runNavi(["tools", "--json"], { home: home.path });
  const names = JSON.parse(tools.stdout).map((t: { function: { name: string } }) => t.function.name);
  assert(names.includes("mcp__everything__echo"));
  assertEquals(names.slice(0, 7), [
    "read_file",
    "write_file",
    "edit_file",
    "list_dir",
    "glob",
    "grep",
    "bash",
  ]);

  const llm = startLlmServer([
    { toolCalls: [{ name: "mcp__everything__echo", arguments: '{"message":"ping"}' }] },
    { text: "The server said ping." },
  ]);
  try {
    const cfg = JSON.parse(await Deno.readTextFile(join(home.path, "config.json")));
    cfg.providers = { t: { base_url: llm.url, api_key: "k" } };
    cfg.model = "m";
    await writeConfig(home.path, cfg);
    const r = await runNavi(["-p", "echo ping"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "The server said ping.\n");
    const tool = JSON.parse((llm.requests[1].body.messages as { content: string }[]).at(-1)!.content);
    assertEquals(tool, { ok: true, output: "Echo: ping" });
    assertEquals(rawField(llm.requests[0].raw, "tools"), rawField(llm.requests[1].raw, "tools"));
  } finally {
    await llm.close();
  }
});

Deno.test("mcp add / remove edit config.json and keep other settings; bad input is refused", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { model: "keep-me" });
  const a = await runNavi(["mcp", "add", "web", "--url", "http://127.0.0.1:1/mcp", "--header", "X-Key:$K"], {
    home: home.path,
  });
  assertEquals(a.code, 0, a.stderr);
  const b = await runNavi(["mcp", "add", "local", "--env", "A=1", "--", "srv", "--flag"], {
    home: home.path,
  });
  assertEquals(b.code, 0, b.stderr);
  let cfg = JSON.parse(await Deno.readTextFile(join(home.path, "config.json")));
  assertEquals(cfg, {
    model: "keep-me",
    mcp_servers: {
      web: { url: "http://127.0.0.1:1/mcp", headers: { "X-Key": "$K" } },
      local: { command: "srv", args: ["--flag"], env: { A: "1" } },
    },
  });
  const dup = await runNavi(["mcp", "add", "web", "--url", "http://127.0.0.1:2/mcp"], { home: home.path });
  assertEquals(dup.code, 1);
  assertMatch(dup.stderr, /already exists/);
  const bad = await runNavi(["mcp", "add", "a__b", "--", "x"], { home: home.path });
  assertMatch(bad.stderr, /invalid server name/);
  const rm = await runNavi(["mcp", "remove", "web"], { home: home.path });
  assertEquals(rm.code, 0, rm.stderr);
  cfg = JSON.parse(await Deno.readTextFile(join(home.path, "config.json")));
  assertEquals(Object.keys(cfg.mcp_servers), ["local"]);
  const list = await runNavi(["mcp", "list"], { home: home.path });
  assertMatch(list.stdout, /local\s+stdio\s+failed\s+0\s+\S/);
});

Deno.test("a session resumed after an MCP server is gone drops its tools and tells the model", async () => {
  await using home = await tempDir();
  const llm = startLlmServer((i) => ({ text: `answer ${i}` }));
  try {
    const config = (servers: Record<string, unknown>) =>
      Deno.writeTextFile(
        join(home.path, "config.json"),
        JSON.stringify({
          providers: { t: { base_url: llm.url, api_key: "k" } },
          model: "m",
          mcp_servers: servers,
        }),
      );
    await config({ srv: { command: Deno.execPath(), args: TEST_SERVER } });
    const first = await runNavi(["-p", "one", "--output-format", "json"], { home: home.path });
    assertEquals(first.code, 0, first.stderr);
    await config({});
    const second = await runNavi(["--resume", JSON.parse(first.stdout).session_id, "-p", "two"], {
      home: home.path,
    });
    assertEquals(second.code, 0, second.stderr);
    const names = (i: number) =>
      JSON.parse(rawField(llm.requests[i].raw, "tools")).map((t: { function: { name: string } }) =>
        t.function.name
      );
    assert(names(0).includes("mcp__srv__echo"));
    assertEquals(names(1), names(0).filter((n: string) => !n.startsWith("mcp__srv__")));
    const last = (llm.requests[1].body.messages as { content: string }[]).at(-1)!.content;
    assertMatch(last, /^<system-reminder>Tools removed: mcp__srv__/);
  } finally {
    await llm.close();
  }
});

Deno.test("the REPL shows /mcp status", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { mcp_servers: { srv: { command: Deno.execPath(), args: TEST_SERVER } } });
  const r = await runNavi([], { home: home.path, stdin: "/mcp\n/mcp help\n/exit\n" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /srv\s+stdio\s+connected\s+\d+/);
  assertMatch(r.stdout, /\/mcp reload\s+reconnect everything/);
});

Deno.test("-p names an MCP server that failed to connect on stderr and still answers", async () => {
  await using home = await tempDir();
  const llm = startLlmServer([{ text: "fine" }]);
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: llm.url, api_key: "k" } },
      model: "m",
      mcp_servers: { broken: { command: Deno.execPath(), args: [...TEST_SERVER, "exit"] } },
    });
    const r = await runNavi(["-p", "hi"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "fine\n");
    assertMatch(r.stderr, /^navi: warning: MCP server broken failed: .+$/m);
  } finally {
    await llm.close();
  }
});

Deno.test(
  "/mcp add in the REPL: the new header and $VAR env values are redacted and kept from bash children",
  async () => {
    await using home = await tempDir();
    const header = "Bearer web-token-SECRET-31415926";
    const stdioSecret = "stdio-env-SECRET-27182818";
    const http = startMcpHttp();
    const llm = startLlmServer([
      {
        toolCalls: [
          {
            name: "bash",
            arguments: '{"command":"echo \\"[${WEB_TOKEN:-unset}] [${STDIO_SECRET:-unset}]\\""}',
          },
          { name: "mcp__web__auth_header", arguments: "{}" },
          { name: "mcp__sdk__getenv", arguments: '{"name":"API_TOKEN"}' },
        ],
      },
      { text: "done" },
    ]);
    try {
      await writeConfig(home.path, llmConfig(llm.url, { approval: "auto" }));
      const r = await runNavi([], {
        home: home.path,
        env: { WEB_TOKEN: header, STDIO_SECRET: stdioSecret },
        stdin: [
          `/mcp add web --url ${http.url} --header Authorization:$WEB_TOKEN`,
          `/mcp add sdk --env API_TOKEN=$STDIO_SECRET -- ${Deno.execPath()} ${TEST_SERVER.join(" ")}`,
          "go",
          "/exit",
          "",
        ].join("\n"),
      });
      assertEquals(r.code, 0, r.stderr);
      assertEquals(http.headers.at(-1)?.get("authorization"), header, "the server got the header");
      const results = (llm.requests[1].body.messages as { role: string; content: string }[])
        .filter((m) => m.role === "tool").map((m) => m.content);
      assertEquals(JSON.parse(results[0]).output, "[unset] [unset]\n", "bash children lack both variables");
      assertEquals(JSON.parse(results[1]).output, "[redacted]", "the header value, as the server saw it");
      assertEquals(JSON.parse(results[2]).output, "[redacted]", "the env value, as the server saw it");
      const sessions = textUnder(join(home.path, "sessions"));
      const seen = r.stdout + r.stderr + sessions + results.join("");
      for (const secret of [header, stdioSecret]) assert(!seen.includes(secret), `${secret} leaked`);
    } finally {
      await llm.close();
      await http.close();
    }
  },
);

Deno.test("mcp list --tools names each server's tools; a failed server exits 1 with its stderr and log", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { mcp_servers: { srv: { command: Deno.execPath(), args: TEST_SERVER } } });
  const ok = await runNavi(["mcp", "list", "--tools"], { home: home.path });
  assertEquals(ok.code, 0, ok.stderr);
  assertMatch(ok.stdout, /\nsrv\n {2}mcp__srv__add\n {2}mcp__srv__ask\n/);
  assertMatch(ok.stdout, /\n {2}mcp__srv__echo\n/);
  await writeConfig(home.path, {
    mcp_servers: {
      srv: { command: Deno.execPath(), args: TEST_SERVER },
      broken: { command: Deno.execPath(), args: [...TEST_SERVER, "exit"] },
    },
  });
  const bad = await runNavi(["mcp", "list"], { home: home.path });
  assertEquals(bad.code, 1);
  const log = join(home.path, "logs", "mcp-broken.log");
  const line = bad.stdout.split("\n").find((l) => l.startsWith("broken"))!;
  assertMatch(line, /failed\s+0\s+.*the server said: test server: refusing to start/);
  assert(line.includes(`(log: ${log})`), line);
});

Deno.test("mcp add needs -- before the server command and warns when the command is not on PATH", async () => {
  await using home = await tempDir();
  const noDash = await runNavi(["mcp", "add", "x", "npx", "-y", "some-server"], { home: home.path });
  assertEquals(noDash.code, 1);
  assertMatch(noDash.stderr, /put the server command after --: navi mcp add <name>/);
  const missing = await runNavi(["mcp", "add", "x", "--", "no-such-program-xyz", "--flag"], {
    home: home.path,
  });
  assertEquals(missing.code, 0, missing.stderr);
  assertMatch(missing.stdout, /added MCP server x \(stdio\)\nwarning: no-such-program-xyz is not on PATH/);
  const found = await runNavi(["mcp", "add", "y", "--", Deno.execPath(), "--version"], { home: home.path });
  assertEquals(found.stdout, "added MCP server y (stdio)\n");
});
