// /rewind and /fork in the REPL under a real pseudo-terminal: Esc Esc on an empty prompt opens the list of
// turns, a pick restores code and conversation (a file the user changed is asked about); /fork continues in
// a new session.
import { join } from "node:path";
import { naviInPty as repl } from "../../support/navi_pty.ts";
import { assert, assertEquals, assertMatch } from "../../helpers.ts";

type Msg = { role: string; content?: string };

Deno.test("Esc Esc lists the turns; rewinding code and conversation restores files and drops turn 2", async () => {
  await using r = await repl([
    { toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "a.txt", content: "one\n" }) }] },
    { text: "one done" },
    {
      toolCalls: [{
        name: "bash",
        arguments: JSON.stringify({ command: "echo two > a.txt && echo b > b.txt" }),
      }],
    },
    { text: "two done" },
    { text: "three done" },
    { text: "fork done" },
  ], { args: ["--approval", "auto"] });
  await r.pty.type("turn one");
  await r.pty.keys("Enter");
  await r.pty.waitFor("one done");
  await r.pty.type("turn two");
  await r.pty.keys("Enter");
  await r.pty.waitFor("two done");
  assertEquals(await Deno.readTextFile(join(r.ws, "a.txt")), "two\n");
  await Deno.writeTextFile(join(r.ws, "a.txt"), "mine\n");

  await r.pty.keys("Escape");
  await new Promise((res) => setTimeout(res, 150));
  await r.pty.keys("Escape");
  const list = await r.pty.waitFor("rewind to the end of which turn?");
  assertMatch(
    list,
    /#\s+TIME\s+FILES\s+PROMPT\n1\s+\S+\s+a\.txt\s+turn one\n2\s+\S+\s+a\.txt, b\.txt\s+turn two\n/,
  );
  await r.pty.type("1");
  await r.pty.keys("Enter");
  await r.pty.waitFor("restore what?");
  await r.pty.type("1");
  await r.pty.keys("Enter");
  const asked = await r.pty.waitFor("overwrite a.txt with its state at the end of turn 1? [y/N]");
  assertMatch(asked, /a\.txt changed since navi left it:\n.*- two\n.*\+ mine\n/s);
  await r.pty.type("n");
  await r.pty.keys("Enter");
  const done = await r.pty.waitFor("the conversation is back at the end of turn 1");
  assertMatch(done, /restored 1 file to the end of turn 1: b\.txt\nkept as they are now: a\.txt\n/);
  assertEquals(await Deno.readTextFile(join(r.ws, "a.txt")), "mine\n", "not overwritten without a yes");
  assert(!(await Deno.stat(join(r.ws, "b.txt")).catch(() => null)), "b.txt is gone");

  await r.pty.type("turn three");
  await r.pty.keys("Enter");
  await r.pty.waitFor("three done");
  const sent = (r.server.requests.at(-1)!.body.messages as Msg[]).map((m) => m.content);
  assert(sent.includes("turn one") && !sent.includes("turn two"), JSON.stringify(sent));

  const before = (r.server.requests.at(-1)!.body as { prompt_cache_key?: string }).prompt_cache_key;
  await r.pty.type("/fork");
  await r.pty.keys("Enter");
  const forked = await r.pty.waitFor(/forked \S+ into (\S+);/);
  const id = /forked \S+ into (\S+);/.exec(forked)![1];
  await r.pty.type("in the fork");
  await r.pty.keys("Enter");
  await r.pty.waitFor("fork done");
  const body = r.server.requests.at(-1)!.body as { prompt_cache_key?: string; messages: Msg[] };
  assert(body.prompt_cache_key !== before, "the fork is a session of its own");
  assertEquals(body.prompt_cache_key, id);
  assert(body.messages.some((m) => m.content === "turn three"), "the fork has the history");
});
