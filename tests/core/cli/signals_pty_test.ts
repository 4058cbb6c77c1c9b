// Under a real terminal (tmux, private socket): closing the terminal hangs up navi's REPL mid-command.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { markedSleep, pidsWith, processGone } from "../../support/navi_process.ts";
import { haveTmux, Pty } from "../../support/pty.ts";
import { assertValidSession, onlySession } from "../../support/session_check.ts";
import { assertEquals, assertMatch, llmConfig, MAIN, tempDir, until, writeConfig } from "../../helpers.ts";

Deno.test({
  name: "closing the terminal mid-command (SIGHUP): the bash group is killed, the session stays consistent",
  ignore: !haveTmux(),
  async fn() {
    await using home = await tempDir();
    const sleep = markedSleep();
    const server = startLlmServer([
      { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: `${sleep.command} & wait` }) }] },
      { text: "slept" },
    ]);
    let sleepPid = 0;
    try {
      await writeConfig(home.path, llmConfig(server.url, { approval: "auto" }));
      const errFile = join(home.path, "stderr.txt");
      const pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
        env: { NAVI_HOME: home.path, NO_COLOR: "1" },
        cwd: home.path,
        width: 100,
        height: 30,
        stderrFile: errFile,
      });
      try {
        await pty.waitFor("›", 20_000);
        const naviPid = await pty.programPid();
        await pty.type("sleep please");
        await pty.keys("Enter");
        await until(
          () => (sleepPid = pidsWith(sleep.marker)[0] ?? 0) > 0,
          20_000,
          "the bash command to start",
        );
        await pty.close();
        await until(() => processGone(naviPid), 10_000, "navi to end");
      } finally {
        await pty.close();
      }
      await until(() => processGone(sleepPid), 3000, "the bash command's sleep to be gone");
      const messages = assertValidSession(await onlySession(home.path));
      assertMatch(String(messages.at(-1)?.content), /aborted by the user/i);
      assertEquals(await Deno.readTextFile(errFile), "navi: hung up (SIGHUP)\n");
    } finally {
      if (sleepPid && !processGone(sleepPid)) Deno.kill(sleepPid, "SIGKILL");
      await server.close();
    }
  },
});
