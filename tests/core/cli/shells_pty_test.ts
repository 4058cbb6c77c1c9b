// Background shells in the REPL under a real terminal (tmux): the line after a turn, the status line while
// the next turn runs, /shells listing them and stopping one.
import { naviInPty } from "../../support/navi_pty.ts";
import { assertEquals, until } from "../../helpers.ts";
import { marked, processesWith } from "../shells/support.ts";

Deno.test("/shells lists the background shells and stops one; the status line counts them", async () => {
  const marker = `navi-pty-${crypto.randomUUID().slice(0, 8)}`;
  await using r = await naviInPty([
    {
      toolCalls: [{
        name: "bash",
        arguments: JSON.stringify({ command: marked(marker), run_in_background: true }),
      }],
    },
    { text: "started it" },
    { hang: true },
  ], { args: ["--approval", "auto"] });
  try {
    await r.pty.type("start a server");
    await r.pty.keys("Enter");
    await r.pty.waitFor(/started it\n(.*\n)?1 background shell running \(\/shells\)/);
    await r.pty.type("/shells");
    await r.pty.keys("Enter");
    await r.pty.waitFor(
      new RegExp(
        `id\\s+status\\s+age\\s+output\\s+command\\n\\s*shell_1\\s+running\\s+\\d+s\\s+0 B\\s+m=${marker}`,
      ),
    );
    await r.pty.type("wait for it");
    await r.pty.keys("Enter");
    await r.pty.waitFor(/thinking \d+s · 1 background shell running/);
    await r.pty.keys("Escape");
    await r.pty.waitFor("(interrupted)");
    assertEquals(processesWith(marker).length, 1, "an interrupted turn leaves the shell running");
    await r.pty.type("/shells kill shell_1");
    await r.pty.keys("Enter");
    await r.pty.waitFor(/shell_1 stopped \(killed, exit \d+\)/);
    await until(() => processesWith(marker).length === 0, 5000, "the shell's process is gone");
    await r.pty.type("/shells");
    await r.pty.keys("Enter");
    await r.pty.waitFor(/shell_1\s+killed \(\d+\)/);
  } finally {
    for (const pid of processesWith(marker)) Deno.kill(pid, "SIGKILL");
  }
});
