// Under a real terminal (tmux): the live line of each running subagent, and Ctrl-C stopping them all.
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { haveTmux, Pty } from "../../support/pty.ts";
import { assert, assertEquals, llmConfig, MAIN, tempDir, until, writeConfig } from "../../helpers.ts";

type Body = Record<string, unknown>;
const messages = (b: Body) => b.messages as { role: string; content: unknown }[];
const isSub = (b: Body) => String(messages(b)[0].content).includes("read-only explorer");
const task = (description: string) => ({
  name: "task",
  arguments: JSON.stringify({ agent: "explore", description, prompt: `please ${description}` }),
});

Deno.test({
  name: "two subagents show one live line each; Ctrl-C stops both and the parent turn",
  ignore: !haveTmux(),
  async fn() {
    await using home = await tempDir();
    await using ws = await tempDir();
    const server = startLlmServer((_i, body): Step => {
      if (isSub(body)) return { text: "looking", fault: { cutAfter: 2, then: "hang" } };
      if (messages(body).at(-1)!.role === "user") {
        return { toolCalls: [task("look at a"), task("look at b")] };
      }
      return { text: "the parent went on" };
    });
    try {
      await writeConfig(home.path, llmConfig(server.url));
      const pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
        env: { NAVI_HOME: home.path },
        cwd: ws.path,
        width: 120,
        height: 30,
      });
      try {
        await pty.waitFor("/help for commands", 20_000);
        await pty.type("explore both");
        await pty.keys("Enter");
        await pty.waitFor(
          /↳ explore · look at a · \d+s\n.*↳ explore · look at b · \d+s|↳ explore · look at b · \d+s\n.*↳ explore · look at a · \d+s/,
        );
        const subs = () => server.requests.filter((q) => isSub(q.body));
        await until(
          () => subs().length === 2 && subs().every((q) => q.progress.hanging),
          10_000,
          "both hanging",
        );
        await pty.keys("C-c");
        await until(
          () => subs().every((q) => q.progress.ended),
          10_000,
          "both subagent requests to be dropped",
        );
        await pty.waitFor(/\(interrupted\)/);
        const screen = await pty.screen({ all: true });
        assertEquals(screen.match(/↳ explore · look at [ab]: Aborted by the user/g)?.length, 2, screen);
        assert(!screen.includes("the parent went on"), "the parent turn stopped too");
        assertEquals(server.requests.length, 3, "no request after Ctrl-C");
      } finally {
        await pty.close();
      }
    } finally {
      await server.close();
    }
  },
});
