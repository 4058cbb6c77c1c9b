// Secrets and terminal control sequences from a hostile model, tool or MCP server: nothing navi writes
// (stdout, stderr, session files, logs, the REPL screen) carries a secret or a raw control sequence.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { startMcpHttp } from "../../support/mcp_http.ts";
import { Pty } from "../../support/pty.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  MAIN,
  ROOT,
  runNavi,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";

const KEY = "sk-hostile-PROVIDER-key-0123456789";
const TOKEN = "Bearer mcp-HTTP-token-abcdefgh";
const STDIO = "stdio-ENV-token-ijklmnop";
const SECRETS = [KEY, TOKEN, STDIO];
const OSC = "\x1b]52;c;ZXZpbA==\x07\x1b]2;pwned\x07\x1b[2J";

/** Text that the scripted server's 3 pieces cut in the middle of the key. */
function keyAcrossPieces(after: string): string {
  const size = 60;
  const text = "x".repeat(size - 10) + KEY + " " + after;
  return text + " ".repeat(3 * size - text.length) + "END-OF-ANSWER";
}

async function everythingUnder(dir: string): Promise<string> {
  let text = "";
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    text += e.isDirectory ? await everythingUnder(p) : `\n--- ${p}\n` + await Deno.readTextFile(p);
  }
  return text;
}

Deno.test("no secret reaches stdout, stderr, the session (messages and audit errors) or the logs, -p", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const mcp = startMcpHttp();
  const llm = startLlmServer([
    {
      text: `Looking with ${KEY}.`,
      toolCalls: [
        { name: "read_file", arguments: JSON.stringify({ path: `no-such-${KEY}.txt` }) },
        { name: "read_file", arguments: JSON.stringify({ path: `no-such-${TOKEN}.txt` }) },
        { name: "mcp__web__auth_header", arguments: "{}" },
        { name: "mcp__local__getenv", arguments: '{"name":"SERVER_TOKEN"}' },
      ],
    },
    { text: `final ${KEY} ${TOKEN} ${STDIO} ${OSC} done` },
  ]);
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: llm.url, api_key: "$NAVI_TEST_KEY" } },
      model: "m",
      mcp_servers: {
        web: { url: mcp.url, headers: { Authorization: "$MCP_TOKEN" } },
        local: {
          command: Deno.execPath(),
          args: ["run", "-A", join(ROOT, "tests/support/mcp_test_server.ts")],
          env: { SERVER_TOKEN: "$STDIO_TOKEN" },
        },
      },
    });
    const r = await runNavi(["-p", "go"], {
      home: home.path,
      cwd: ws.path,
      env: { NAVI_TEST_KEY: KEY, MCP_TOKEN: TOKEN, STDIO_TOKEN: STDIO },
    });
    assertEquals(r.code, 0, r.stderr);
    const files = await everythingUnder(home.path);
    for (const secret of SECRETS) {
      for (const [where, text] of [["stdout", r.stdout], ["stderr", r.stderr], ["files", files]]) {
        assert(!text.includes(secret), `${secret} in ${where}:\n${text}`);
      }
    }
    assertEquals(
      r.stdout,
      "final [redacted] [redacted] [redacted] \\x1b]52;c;ZXZpbA==\\x07\\x1b]2;pwned\\x07\\x1b[2J done\n",
    );
    const audits = files.split("\n").filter((l) => l.includes('"type":"audit"')).map((l) => JSON.parse(l));
    assertEquals(audits.map((a) => `${a.tool} ${a.decision} ${a.ok}`).sort(), [
      "mcp__local__getenv read_only true",
      "mcp__web__auth_header read_only true",
      "read_file read_only false",
      "read_file read_only false",
    ]);
    const errors = audits.filter((a) => a.error).map((a) => a.error);
    assertEquals(errors.length, 2);
    for (const e of errors) assertMatch(e, /no-such-\[redacted\]\.txt/);
    assertMatch(files, /test server: my token is \[redacted\]/);
    const toolMessages = (llm.requests[1].body.messages as { role: string; content: string }[])
      .filter((m) => m.role === "tool").map((m) => m.content);
    assertEquals(toolMessages.length, 4);
    for (const content of toolMessages) assertMatch(content, /\[redacted\]/);
  } finally {
    await llm.close();
    await mcp.close();
  }
});

Deno.test("the REPL screen under a real terminal: a key split across streamed pieces is redacted, control sequences are shown, not obeyed", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const outsidePath = join(home.path, "evil\x1b]2;pwned\x07.txt");
  const llm = startLlmServer([
    { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: `echo ${KEY}` }) }] },
    { toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: outsidePath, content: "x" }) }] },
    { text: keyAcrossPieces(`osc ${OSC} after`) },
  ]);
  try {
    await writeConfig(home.path, {
      providers: { t: { base_url: llm.url, api_key: "$NAVI_TEST_KEY" } },
      model: "m",
    });
    await using term = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
      clipboard: true,
      width: 120,
      height: 40,
      env: { NAVI_HOME: home.path, NAVI_TEST_KEY: KEY, NO_COLOR: "1" },
      cwd: ws.path,
    });
    const titleBefore = await term.title();
    const shows = (text: string, what: string) =>
      until(async () => (await term.screen()).includes(text), 30_000, what);
    await shows("›", "the prompt");
    await term.type("tell me");
    await term.keys("Enter");
    await shows("bash wants to run:", "the question about bash");
    await term.keys("n");
    await shows("what should navi do instead?", "the question what to do instead");
    await term.keys("Enter");
    await shows("write_file wants to", "the question about write_file");
    await shows("outside the workspace", "the question says the path is outside");
    await term.keys("n");
    await until(
      async () => (await term.screen()).split("do instead?").length === 3,
      30_000,
      "instead, again",
    );
    await term.keys("Enter");
    // The answer's last line shows as it streams, then in its rendered form: wait for that one.
    const rendered = /\[redacted\] osc\s+\\x1b\]52;c;ZXZpbA==\\x07\\x1b\]2;pwned\\x07\\x1b\[2J after/;
    await until(async () => rendered.test(await term.screen()), 30_000, "the answer, rendered");
    const screen = await term.screen();
    assert(!screen.includes(KEY) && !screen.includes(KEY.slice(0, 12)), screen);
    assertMatch(screen, /bash wants to run:\n\s+│ echo \[redacted\]/);
    assertMatch(
      screen,
      /write_file wants to create .*evil\\x1b\]2;pwned\\x07\.txt \(1 lines, 1 B\) \(outside the\s+workspace:/,
    );
    assertEquals(screen.split("write_file wants to").length, 2, "asked once");
    assertMatch(screen, rendered);
    assertMatch(screen, /tell me/, "the screen was not cleared");
    assertEquals(await term.buffers(), "", "no clipboard write");
    assertEquals(await term.title(), titleBefore, "the title is unchanged");
    const session = await everythingUnder(join(home.path, "sessions"));
    assert(!session.includes(KEY), session);
  } finally {
    await llm.close();
  }
});
