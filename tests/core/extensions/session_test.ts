// Skills and the prompt cache: the tools array does not change, a skill added mid-session arrives as a
// reminder, a resumed session keeps the skills block's bytes.
import { bootApp, type Env, type NaviApp, startConversation } from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { assert, assertEquals, assertMatch, llmConfig, tempDir } from "../../helpers.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { writeTree } from "../../support/project_fixture.ts";

type Body = { messages: { role: string; content: string }[]; tools: unknown[] };

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;

function envWithHome(userHome: string): Env {
  return {
    get: (k) => (k === "HOME" ? userHome : Deno.env.get(k)),
    toObject: () => ({ ...Deno.env.toObject(), HOME: userHome }),
  };
}

Deno.test("skills leave the tools array alone; one added mid-session comes as a reminder; a resumed session keeps the block", async () => {
  await using home = await tempDir();
  await using userHome = await tempDir();
  await using ws = await tempDir();
  await using bare = await tempDir();
  await writeTree(ws.path, { ".git/HEAD": "", ".agents/skills/one/SKILL.md": skill("one") });
  const server = startLlmServer(() => ({ text: "ok" }));
  const apps: NaviApp[] = [];
  const open = async (workspace: string, resume?: string) => {
    const app = await bootApp({
      home: home.path,
      workspace,
      env: envWithHome(userHome.path),
      builtins: builtinTools(),
      config: llmConfig(server.url),
      plugins: "skip",
    });
    apps.push(app);
    return await startConversation(app, { mcp: "await", terminal: false, report: () => {}, resume });
  };
  const body = (i: number) => server.requests[i].body as unknown as Body;
  const signal = new AbortController().signal;
  try {
    const withoutSkills = await open(bare.path);
    await withoutSkills.agent.run("hi", signal);
    const convo = await open(ws.path);
    await convo.agent.run("first", signal);
    assertEquals(
      JSON.stringify(body(1).tools),
      JSON.stringify(body(0).tools),
      "skills change nothing in the tools array",
    );
    assertMatch(body(1).messages[1].content, /^<available-skills>[\s\S]*- one: The one skill\./);
    await writeTree(ws.path, { ".agents/skills/two/SKILL.md": skill("two") });
    await convo.agent.run("second", signal);
    const second = body(2).messages;
    assertEquals(second[1].content, body(1).messages[1].content, "the block's bytes stay");
    assertEquals(
      second.slice(0, body(1).messages.length).map((m) => m.content),
      body(1).messages.map((m) => m.content),
    );
    const reminder = second.at(-1)!.content;
    assertMatch(
      reminder,
      /^<system-reminder>Skills added during this conversation \(activate one with the skill tool\):\n- two: The two skill\. \(\.agents\/skills\/two\/SKILL\.md\)<\/system-reminder>$/,
    );
    assertEquals(JSON.stringify(body(2).tools), JSON.stringify(body(0).tools));
    const id = convo.agent.session.meta.id;
    await writeTree(ws.path, { ".agents/skills/three/SKILL.md": skill("three") });
    const resumed = await open(ws.path, id);
    await resumed.agent.run("third", signal);
    const third = body(3).messages;
    assertEquals(
      third[1].content,
      body(1).messages[1].content,
      "a resumed session sees the same block bytes",
    );
    assert(third.at(-1)!.content.includes("- three: The three skill."), "new since the block: announced");
    assert(
      !third.at(-1)!.content.includes("- two:"),
      "a skill announced in an earlier reminder is not announced again",
    );
  } finally {
    for (const app of apps) await app.close();
    await server.close();
  }
});
