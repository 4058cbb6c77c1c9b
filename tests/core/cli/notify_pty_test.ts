// Terminal notifications under a real terminal (tmux), read from the raw bytes navi writes: a turn that took
// longer than notify.after_s and an approval question each send navi's own OSC 9 (wrapped for tmux); an OSC 9
// inside the model's text stays neutralised; `notify: false` sends none.
import { join } from "node:path";
import { naviInPty } from "../../support/navi_pty.ts";
import { assert, assertEquals, until } from "../../helpers.ts";

const OWN = (text: string) => `\x1bPtmux;\x1b\x1b]9;${text}\x07\x1b\\`;

async function raw(file: string): Promise<string> {
  return await Deno.readTextFile(file).catch(() => "");
}

Deno.test("a long turn and an approval ask the terminal for a notification; the model's OSC 9 is shown escaped", async () => {
  await using r = await naviInPty([
    { text: "hostile \x1b]9;from the model\x07 text" },
    { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "echo approved" }) }] },
    { text: "second done" },
  ], { config: { notify: { after_s: 0 } } });
  const file = join(r.home, "raw.out");
  await r.pty.recordOutput(file);
  await r.pty.type("first");
  await r.pty.keys("Enter");
  await r.pty.waitFor("text");
  await until(async () => (await raw(file)).includes(OWN("navi is done (0 s) and waits for you")), 10_000);
  const first = await raw(file);
  assert(!first.includes("\x1b]9;from the model"), "the model's sequence does not reach the terminal");
  assert(first.includes("\\x1b]9;from the model\\x07"), "it is shown escaped");
  await r.pty.type("second");
  await r.pty.keys("Enter");
  await r.pty.waitFor("(Esc no · Ctrl-C stop)");
  await until(async () =>
    (await raw(file)).includes(OWN('navi needs your approval: bash command="echo approved"'))
  );
  await r.pty.type("y");
  await r.pty.waitFor("second done");
  await until(async () => (await raw(file)).split(OWN("navi is done (0 s) and waits for you")).length === 3);
});

Deno.test("notify: false sends none, not even for an approval; a turn under notify.after_s sends none", async () => {
  {
    await using r = await naviInPty([
      { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "echo approved" }) }] },
      { text: "quiet one" },
    ], { config: { notify: false } });
    const file = join(r.home, "raw.out");
    await r.pty.recordOutput(file);
    await r.pty.type("hi");
    await r.pty.keys("Enter");
    await r.pty.waitFor("(Esc no · Ctrl-C stop)");
    await r.pty.type("y");
    await r.pty.waitFor("quiet one");
    await r.pty.type("/todo");
    await r.pty.keys("Enter");
    await r.pty.waitFor("the todo list is empty");
    assert((await raw(file)).includes("quiet one"), "the recording saw the turn");
    assertEquals((await raw(file)).includes("]9;"), false);
  }
  await using r = await naviInPty([{ text: "quick one" }], { config: { notify: { after_s: 60 } } });
  const file = join(r.home, "raw.out");
  await r.pty.recordOutput(file);
  await r.pty.type("hi");
  await r.pty.keys("Enter");
  await r.pty.waitFor("quick one");
  await r.pty.type("/todo");
  await r.pty.keys("Enter");
  await r.pty.waitFor("the todo list is empty");
  assertEquals((await raw(file)).includes("]9;"), false);
});
