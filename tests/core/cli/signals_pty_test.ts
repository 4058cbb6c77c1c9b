// Under a real terminal (tmux, private socket): closing the terminal hangs up navi's REPL mid-command.
import { join } from "node:path";
import { startLlmServer } from "../../support/llm_server.ts";
import { markedSleep, pidsWith, processGone } from "../../support/navi_process.ts";
import { assertValidSession, onlySession } from "../../support/session_check.ts";
import { assertEquals, assertMatch, MAIN, tempDir, until } from "../../helpers.ts";

const hasTmux = (() => {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
})();

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return new TextDecoder().decode(out.stdout);
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

Deno.test({
  name: "closing the terminal mid-command (SIGHUP): the bash group is killed, the session stays consistent",
  ignore: !hasTmux,
  async fn() {
    await using home = await tempDir();
    const sleep = markedSleep();
    const server = startLlmServer([
      { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: `${sleep.command} & wait` }) }] },
      { text: "slept" },
    ]);
    const socket = `navi-12b-${crypto.randomUUID().slice(0, 8)}`;
    let sleepPid = 0;
    try {
      await Deno.writeTextFile(
        join(home.path, "config.json"),
        JSON.stringify({
          providers: { local: { base_url: server.url, api_key: "k" } },
          model: "m",
          approval: "auto",
        }),
      );
      const errFile = join(home.path, "stderr.txt");
      const command = `cd ${quote(home.path)} && exec env NAVI_HOME=${quote(home.path)} NO_COLOR=1 ` +
        `${quote(Deno.execPath())} run -A ${quote(MAIN)} 2>${quote(errFile)}`;
      await tmux(socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", command);
      const naviPid = Number((await tmux(socket, "display", "-p", "#{pane_pid}")).trim());
      await until(async () => (await tmux(socket, "capture-pane", "-p")).includes("›"), 20_000, "the prompt");
      await tmux(socket, "send-keys", "sleep please", "Enter");
      await until(() => (sleepPid = pidsWith(sleep.marker)[0] ?? 0) > 0, 20_000, "the bash command to start");
      await tmux(socket, "kill-server");
      await until(() => processGone(naviPid), 10_000, "navi to end");
      await until(() => processGone(sleepPid), 3000, "the bash command's sleep to be gone");
      const messages = assertValidSession(await onlySession(home.path));
      assertMatch(String(messages.at(-1)?.content), /aborted by the user/i);
      assertEquals(await Deno.readTextFile(errFile), "navi: hung up (SIGHUP)\n");
    } finally {
      await tmux(socket, "kill-server").catch(() => "");
      if (sleepPid && !processGone(sleepPid)) Deno.kill(sleepPid, "SIGKILL");
      await server.close();
    }
  },
});
