// What cannot fit the model's window, against a provider-like server that refuses over-window requests with
// 400: a message too large is not sent (one line says why and what to do), and a tool-call argument too large
// for the conversation is replaced in the history by a note (the full text kept in the session's outputs).
import { join } from "node:path";
import { type Config, ContextLimitError, openConversation } from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  testApp,
  writeConfig,
} from "../../helpers.ts";

/** The fallback window of a model navi does not know (`m`): 32,768 tokens. */
const WINDOW = 32_768;

async function sessionFiles(home: string): Promise<string[]> {
  const dir = join(home, "sessions");
  return await Array.fromAsync(Deno.readDir(dir)).then((es) => es.map((e) => e.name)).catch(() => []);
}

Deno.test("-p with a 600 KB prompt: one line with its size, the window and what to do; nothing is sent", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer([{ text: "should not be asked" }], { window: WINDOW });
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const piped = "a log line that goes on and on\n".repeat(20_000);
    assert(piped.length >= 600_000);
    const r = await runNavi(["-p", "why does this fail?"], { home: home.path, cwd: ws.path, stdin: piped });
    assertEquals(r.code, 1, r.stderr);
    assertEquals(r.stdout, "");
    const lines = r.stderr.trim().split("\n");
    assertEquals(lines.length, 1, r.stderr);
    assertMatch(
      lines[0],
      /^navi: the message is about 1\d\d,\d{3} tokens \(6\d\d KB\) and cannot fit: the model's window is 32,768 tokens, about [\d,]+ of them for a message; nothing was sent\. To go on, send less, or save the text to a file and ask for it to be read in parts$/,
    );
    assertEquals(server.requests.length, 0, "no request reached the provider");
    assertEquals(await sessionFiles(home.path), [], "no session for a message that was never sent");
  } finally {
    await server.close();
  }
});

Deno.test("-p with an attached file too large for the window names the file to read in parts", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer([{ text: "should not be asked" }], { window: 8_000 });
  try {
    await writeConfig(home.path, llmConfig(server.url, { models: { m: { context_window: 8_000 } } }));
    await Deno.writeTextFile(join(ws.path, "big.log"), "entry 0123456789 ok\n".repeat(10_000));
    const r = await runNavi(["-p", "look at @big.log"], { home: home.path, cwd: ws.path });
    assertEquals(r.code, 1, r.stderr);
    assertMatch(
      r.stderr,
      /cannot fit: the model's window is 8,000 tokens.*To go on, attach less: ask for big\.log \(196 KB\) to be read in parts instead of attaching it whole\n$/,
    );
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("-p with a 2 MB tool-call argument: the call runs, the history keeps a note, no request is over the window", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const content = "0123456789abcdef".repeat(131_072);
  const server = startLlmServer([
    { toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "big.txt", content }) }] },
    { text: "written" },
  ], { window: WINDOW });
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const r = await runNavi(["-p", "write the big file", "--approval", "auto"], {
      home: home.path,
      cwd: ws.path,
    });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "written\n");
    assertEquals(server.refused, [], "the provider never refused a request");
    assertEquals(server.requests.length, 2);
    assertEquals((await Deno.readTextFile(join(ws.path, "big.txt"))).length, content.length, "written whole");
    const sent = server.requests[1].body.messages as {
      role: string;
      tool_calls?: { function: { arguments: string } }[];
    }[];
    const args = JSON.parse(sent.find((m) => m.tool_calls)!.tool_calls![0].function.arguments);
    assertMatch(
      args.navi_note,
      /^\[the arguments of this call of 2,097,18\d characters \(about [\d,]+ tokens\) is too large for the model's window and was left out of the conversation; the full text is in (\S+\.txt) \(read it in parts with read_file offset and limit\)\]$/,
    );
    const path = /in (\S+\.txt) \(/.exec(args.navi_note)![1];
    assert(path.startsWith(join(home.path, "sessions")), path);
    assertEquals(JSON.parse(await Deno.readTextFile(path)).content.length, content.length, "kept whole");
  } finally {
    await server.close();
  }
});

Deno.test("a compaction that could not bring the conversation under the window is not attempted", async () => {
  const server = startLlmServer([{ text: "never" }], { window: WINDOW });
  const config: Config = { providers: { t: { base_url: server.url, api_key: "k" } }, model: "m" };
  await using t = await testApp(config);
  try {
    const convo = openConversation(t.app, {});
    const session = convo.agent.session;
    session.addMessage({ role: "user", content: "x".repeat(200_000) });
    let compactions = 0;
    const tools = convo.agent.deferral.view().tools;
    assert(convo.agent.keeper.compactable(), "a summary would be shorter than the conversation");
    try {
      convo.agent.keeper.overBudget(tools);
      compactions++;
    } catch (err) {
      assert(err instanceof ContextLimitError, String(err));
      assertMatch(err.message, /cannot fit the model's window even when compacted.*nothing was sent/);
    }
    assertEquals(compactions, 0);
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
  }
});
