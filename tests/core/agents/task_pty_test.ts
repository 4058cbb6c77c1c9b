// Under a real terminal (tmux): the live line of each running subagent, and Ctrl-C stopping them all.
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { haveTmux, Pty } from "../../support/pty.ts";
import { assert, assertEquals, llmConfig, MAIN, tempDir, until, writeConfig } from "../../helpers.ts";

type Body = Record<string, unknown>;
const messages = (b: Body) => b.messages as { role: string; content: unknown }[];
const isSub = (b: Body) => String(messages(b)[0].content).includes("read-only explorer");
const isGeneral = (b: Body) => String(messages(b)[0].content).includes("working for another agent");
const task = (description: string, agent = "explore") => ({
  name: "task",
  arguments: JSON.stringify({ agent, description, prompt: `please ${description}` }),
});

async function startNavi(home: string, ws: string) {
  const pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
    env: { NAVI_HOME: home },
    cwd: ws,
    width: 120,
    height: 30,
  });
  await pty.waitFor("/help for commands", 20_000);
  return pty;
}

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
      const pty = await startNavi(home.path, ws.path);
      try {
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
        assert(!screen.includes("\\x1b"), "the live lines are redrawn, never shown as escapes");
        assertEquals(server.requests.length, 3, "no request after Ctrl-C");
      } finally {
        await pty.close();
      }
    } finally {
      await server.close();
    }
  },
});

Deno.test({
  name: "two subagents asking for bash: the questions name the agent and come one at a time",
  ignore: !haveTmux(),
  async fn() {
    await using home = await tempDir();
    await using ws = await tempDir();
    const server = startLlmServer((_i, body): Step => {
      const last = messages(body).at(-1)!;
      if (isGeneral(body)) {
        if (last.role === "user") {
          return {
            toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: `echo ${last.content}` }) }],
          };
        }
        return { text: `sub: ${JSON.parse(String(last.content)).error}` };
      }
      if (last.role === "user") return { toolCalls: [task("first", "general"), task("second", "general")] };
      return { text: "the parent went on" };
    });
    try {
      await writeConfig(home.path, llmConfig(server.url));
      const pty = await startNavi(home.path, ws.path);
      try {
        await pty.type("two commands");
        await pty.keys("Enter");
        const asked = async () =>
          (await pty.screen({ all: true })).split("[general] bash wants to run:").length - 1;
        await until(async () => (await asked()) === 1, 15_000, "the first question");
        const firsts = () => server.requests.filter((q) => isGeneral(q.body)).length;
        await until(() => firsts() === 2, 15_000, "both subagents to ask for bash");
        await new Promise((r) => setTimeout(r, 300));
        assertEquals(await asked(), 1, "the second question waits for the first");
        await pty.keys("Escape");
        await until(async () => (await asked()) === 2, 15_000, "the second question");
        await pty.keys("Escape");
        await pty.waitFor("the parent went on");
        const subs = server.requests.filter((q) => isGeneral(q.body));
        assertEquals(subs.length, 4);
      } finally {
        await pty.close();
      }
    } finally {
      await server.close();
    }
  },
});
