import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  runNavi,
  sessionFiles,
  tempDir,
  textUnder,
  writeConfig,
} from "../../helpers.ts";
import { RM_RF_SPELLINGS } from "../../support/shell_spellings.ts";

const KEY = "sk-approval-KNOWN-KEY-42424242";

async function run(
  args: string[],
  steps: Parameters<typeof startLlmServer>[0],
  config: Record<string, unknown> = {},
) {
  const home = await tempDir();
  const ws = await tempDir();
  const server = startLlmServer(steps);
  await writeConfig(home.path, {
    providers: { t: { base_url: server.url, api_key: "$NAVI_TEST_KEY" } },
    model: "m",
    ...config,
  });
  const r = await runNavi(args, { home: home.path, cwd: ws.path, env: { NAVI_TEST_KEY: KEY } });
  await server.close();
  return {
    ...r,
    requests: server.requests,
    home: home.path,
    ws: ws.path,
    async [Symbol.asyncDispose]() {
      await home[Symbol.asyncDispose]();
      await ws[Symbol.asyncDispose]();
    },
  };
}

const writeSteps = () => [
  { toolCalls: [{ name: "write_file", arguments: '{"path":"out.txt","content":"hello"}' }] },
  { text: "finished" },
];
const lastTool = (requests: { body: Record<string, unknown> }[]) =>
  JSON.parse((requests.at(-1)!.body.messages as { role: string; content: string }[]).at(-1)!.content);

Deno.test("ask mode with no terminal refuses the write; the model still answers", async () => {
  await using r = await run(["-p", "write it"], writeSteps());
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "finished\n");
  assert(!(await Deno.stat(join(r.ws, "out.txt")).catch(() => null)), "not written");
  assertEquals(lastTool(r.requests), {
    ok: false,
    error: "Not approved: write_file needs approval; rerun with --approval auto or allow it in config",
  });
});

Deno.test("--approval auto writes the file", async () => {
  await using r = await run(["-p", "write it", "--approval", "auto"], writeSteps());
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(join(r.ws, "out.txt")), "hello");
});

Deno.test("an allow rule skips the question in ask mode", async () => {
  await using r = await run(["-p", "write it"], writeSteps(), { approval: { allow: ["write_file"] } });
  assertEquals(await Deno.readTextFile(join(r.ws, "out.txt")), "hello");
});

Deno.test("a deny rule beats --approval auto", async () => {
  await using r = await run(["-p", "write it", "--approval", "auto"], writeSteps(), {
    approval: { deny: ["write_*"] },
  });
  assert(!(await Deno.stat(join(r.ws, "out.txt")).catch(() => null)), "not written");
  assertMatch(lastTool(r.requests).error, /^Denied: write_file is blocked by a deny rule/);
});

Deno.test("bash children do not get the api key; the key appears nowhere after a full run", async () => {
  await using r = await run(
    ["-p", "show env", "--approval", "auto"],
    [
      { toolCalls: [{ name: "bash", arguments: '{"command":"env; echo marker-$NAVI_TEST_KEY-end"}' }] },
      { text: "done" },
    ],
  );
  assertEquals(r.code, 0, r.stderr);
  const result = lastTool(r.requests);
  assert(result.ok, JSON.stringify(result));
  assertMatch(result.output, /marker--end/);
  assertMatch(result.output, /PATH=/);
  const sessionText = textUnder(join(r.home, "sessions"));
  const everything = r.stdout + r.stderr + sessionText + r.requests.map((q) => q.raw).join("");
  assert(!everything.includes(KEY), "key leaked");
  assertEquals(r.requests[0].headers.get("authorization"), `Bearer ${KEY}`, "but it is sent to the provider");
});

Deno.test("--help shows no secrets", async () => {
  await using home = await tempDir();
  const r = await runNavi(["--help"], { home: home.path, env: { OPENAI_API_KEY: KEY } });
  assert(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
});

Deno.test("literal keys and MCP header values in config.json are redacted from tool results and output", async () => {
  await using home = await tempDir();
  const server = startLlmServer([
    { toolCalls: [{ name: "bash", arguments: '{"command":"cat \\"$NAVI_HOME/config.json\\""}' }] },
    { text: "read it" },
  ]);
  try {
    const header = "Bearer mcp-header-SECRET-777777";
    const literalKey = "sk-literal-SECRET-88888888";
    await writeConfig(home.path, {
      providers: { t: { base_url: server.url, api_key: literalKey } },
      model: "m",
      mcp_servers: {
        web: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: header }, enabled: false },
      },
    });
    const r = await runNavi(["-p", "show config", "--approval", "auto"], { home: home.path });
    assertEquals(r.code, 0, r.stderr);
    const toolResult = (server.requests[1].body.messages as { content: string }[]).at(-1)!.content;
    assertMatch(toolResult, /\[redacted\]/);
    const sessions = textUnder(join(home.path, "sessions"));
    for (const secret of [header, literalKey]) {
      assert(!(toolResult + r.stdout + r.stderr + sessions).includes(secret), `${secret} leaked`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("deny bash(rm -rf*) holds against every respelling of rm -rf, under --approval auto", async () => {
  const calls = RM_RF_SPELLINGS.map((command) => ({ name: "bash", arguments: JSON.stringify({ command }) }));
  calls.push({ name: "bash", arguments: JSON.stringify({ command: "ls -d victim" }) });
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.mkdir(join(ws.path, "victim"));
  await Deno.writeTextFile(join(ws.path, "victim", "keep.txt"), "precious");
  const server = startLlmServer([{ toolCalls: calls }, { text: "tried" }]);
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: server.url, api_key: "k" } },
      model: "m",
      approval: { deny: ["bash(rm -rf*)"] },
    });
    const r = await runNavi(["-p", "clean up", "--approval", "auto"], { home: home.path, cwd: ws.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(await Deno.readTextFile(join(ws.path, "victim", "keep.txt")), "precious");
    const lines = sessionFiles(home.path).flatMap((f) => Deno.readTextFileSync(f).split("\n"));
    const audits = lines.filter((l) => l.includes('"type":"audit"')).map((l) => JSON.parse(l).decision);
    assertEquals(audits, [...RM_RF_SPELLINGS.map(() => "denied"), "auto"]);
    const results = (server.requests[1].body.messages as { role: string; content: string }[])
      .filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
    assertMatch(results[0].error, /^Denied: bash is blocked by a deny rule/);
    assertEquals(results.at(-1).ok, true, "other commands still run");
  } finally {
    await server.close();
  }
});

const MARKER_PLUGIN = `export default (navi) => navi.registerTool({
  name: "touch_marker",
  description: "- Writes ran.txt in the workspace.",
  parameters: navi.z.object({ note: navi.z.string().optional() }),
  approval: "command",
  handler: (_args, ctx) => { Deno.writeTextFileSync(ctx.workspace + "/ran.txt", "ran"); return { ok: true }; },
});
`;

Deno.test("arguments that are not a JSON object never reach a handler, approval or deny rules; the audit says invalid", async () => {
  const raws = ["null", "[]", "1", '"x"'];
  const calls = ["bash", "touch_marker"].flatMap((name) => raws.map((raw) => ({ name, arguments: raw })));
  await using home = await tempDir();
  await using ws = await tempDir();
  await Deno.mkdir(join(home.path, "plugins"));
  await Deno.writeTextFile(join(home.path, "plugins", "marker.js"), MARKER_PLUGIN);
  const server = startLlmServer([{ toolCalls: calls }, { text: "gave up" }]);
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: server.url, api_key: "k" } },
      model: "m",
      approval: { mode: "ask", deny: ["bash(rm*)", "touch_marker"] },
    });
    const r = await runNavi(["-p", "go"], { home: home.path, cwd: ws.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "gave up\n");
    assert(!(await Deno.stat(join(ws.path, "ran.txt")).catch(() => null)), "the handler never ran");
    const results = (server.requests[1].body.messages as { role: string; content: string }[])
      .filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
    const got = ["null", "an array", "a number", "a string"];
    assertEquals(
      results,
      calls.map((c, i) => ({
        ok: false,
        error: `Invalid arguments for ${c.name}: expected a JSON object, got ${got[i % 4]}.`,
      })),
    );
    const audits = sessionFiles(home.path)
      .flatMap((f) => Deno.readTextFileSync(f).split("\n"))
      .filter((l) => l.includes('"type":"audit"')).map((l) => JSON.parse(l));
    assertEquals(
      audits.map((a) => `${a.tool} ${a.decision} ${a.ok}`),
      calls.map((c) => `${c.name} invalid false`),
    );
  } finally {
    await server.close();
  }
});
