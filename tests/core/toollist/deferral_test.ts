// Tool changes that keep the prompt cache (tools.defer): fold when cheap or cold, otherwise keep the tools array
// byte-identical, announce the change in a reminder and run the tool through call_tool under its real name.
import { join } from "node:path";
import { z } from "zod";
import { type Config, defineTool, NaviApp, openConversation } from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { rawField } from "../../support/raw_json.ts";
import { FakeClock } from "../../support/clock.ts";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";

async function setup(
  tools: Config["tools"],
  approval: Config["approval"] = { mode: "ask" },
  clock?: FakeClock,
) {
  const queue: Step[] = [];
  const server = startLlmServer(() => queue.shift() ?? { text: "ok" });
  const home = await tempDir();
  const ws = await tempDir();
  const config: Config = {
    providers: { t: { base_url: server.url, api_key: "k" } },
    model: "m",
    approval,
    tools,
  };
  const app = new NaviApp({
    home: home.path,
    workspace: ws.path,
    config,
    builtins: builtinTools(),
    env: Deno.env,
  });
  const convo = openConversation(app, { clock });
  const signal = new AbortController().signal;
  return {
    server,
    app,
    convo,
    home: home.path,
    queue,
    turn: (prompt: string, ...steps: Step[]) => (queue.push(...steps), convo.agent.run(prompt, signal)),
    tools: (i: number) => rawField(server.requests[i].raw, "tools"),
    names: (i: number) =>
      (server.requests[i].body.tools as { function: { name: string } }[]).map((t) => t.function.name),
    messages: (i: number) => server.requests[i].body.messages as { role: string; content: string }[],
    async [Symbol.asyncDispose]() {
      await server.close();
      await home[Symbol.asyncDispose]();
      await ws[Symbol.asyncDispose]();
    },
  };
}

const tool = (
  name: string,
  opts: { approval?: "read_only" | "write"; timeoutMs?: number; hang?: boolean } = {},
) =>
  defineTool({
    name,
    description: `- ${name}: echoes its text.`,
    parameters: z.object({ text: z.string() }),
    approval: opts.approval ?? "read_only",
    timeoutMs: opts.timeoutMs,
    handler: ({ text }, ctx) =>
      opts.hang
        ? new Promise((r) => ctx.signal.addEventListener("abort", r))
        : { ok: true, echo: `${name}: ${text}` },
  });
const plugin = { kind: "plugin", origin: "test.ts" } as const;
const via = (name: string, args: Record<string, unknown>) => ({
  name: "call_tool",
  arguments: JSON.stringify({ name, arguments: args }),
});
const results = (messages: { role: string; content: string }[]) =>
  messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
const BIG = "a long pasted log line\n".repeat(900);

Deno.test("auto folds a change while the conversation is small and defers it once it is large; deferred tools run through call_tool under their real names", async () => {
  await using t = await setup({}, { mode: "ask", deny: ["denied_tool"] });
  await t.turn("hi");
  t.app.registry.register(tool("early"), plugin);
  await t.turn("small change");
  assertEquals(t.names(1).at(-1), "early", "folded: appended to the array");
  assertEquals(t.messages(1).at(-1)!.content, "<system-reminder>Tools added: early.</system-reminder>");
  await t.turn(`Look at this:\n${BIG}`);

  for (const name of ["late_read", "denied_tool"]) t.app.registry.register(tool(name), plugin);
  t.app.registry.register(tool("late_write", { approval: "write" }), plugin);
  t.app.registry.register(tool("slow_tool", { timeoutMs: 200, hang: true }), plugin);
  await t.turn("use the new tools", {
    toolCalls: [
      via("late_read", { text: "a" }),
      via("late_write", { text: "b" }),
      via("denied_tool", { text: "c" }),
      via("slow_tool", { text: "d" }),
      { name: "late_read", arguments: '{"text":"direct"}' },
    ],
  });
  assertEquals(t.tools(3), t.tools(2), "the tools array is byte-identical");
  const reminder = t.messages(3).at(-1)!.content;
  assertMatch(reminder, /^<system-reminder>Your tools changed\./);
  const schema = t.app.registry.get("late_read")!.inputSchema;
  assert(
    reminder.includes(
      JSON.stringify({ name: "late_read", description: "- late_read: echoes its text.", parameters: schema }),
    ),
    "the reminder carries the full JSON schema",
  );
  assertEquals(results(t.messages(4)), [
    { ok: true, echo: "late_read: a" },
    {
      ok: false,
      error: "Not approved: late_write needs approval; rerun with --approval auto or allow it in config",
    },
    { ok: false, error: "Denied: denied_tool is blocked by a deny rule in config" },
    { ok: false, error: "slow_tool timed out after 200 ms" },
    { ok: true, echo: "late_read: direct" },
  ]);
  const view = t.convo.agent.deferral.view();
  assertEquals(view.deferred.sort(), ["denied_tool", "late_read", "late_write", "slow_tool"]);
  assertEquals(JSON.stringify(view.tools), t.tools(3), "/tools shows the array as sent");

  t.app.registry.unregister("late_read");
  await t.turn("again", { toolCalls: [via("late_read", { text: "e" })] });
  assertMatch(t.messages(5).at(-1)!.content, /Removed tools \(calls to them fail\): late_read\./);
  t.convo.policy.mode = "plan";
  await t.turn("plan", { toolCalls: [via("late_write", { text: "f" })] });
  assertEquals(results(t.messages(8)).slice(-2), [
    { ok: false, error: "Tool late_read was removed; it can no longer be called" },
    { ok: false, error: "Not allowed in plan mode: late_write can change things" },
  ]);
  for (let i = 3; i < t.server.requests.length; i++) assertEquals(t.tools(i), t.tools(2), `request ${i}`);

  const audit = (await Deno.readTextFile(t.convo.agent.session.file)).split("\n").filter(Boolean).map((l) =>
    JSON.parse(l)
  ).filter((r) => r.type === "audit").map(({ tool, decision, ok, via }) => ({ tool, decision, ok, via }));
  assertEquals(audit, [
    { tool: "late_read", decision: "read_only", ok: true, via: "call_tool" },
    { tool: "late_write", decision: "refused", ok: false, via: "call_tool" },
    { tool: "denied_tool", decision: "denied", ok: false, via: "call_tool" },
    { tool: "slow_tool", decision: "read_only", ok: false, via: "call_tool" },
    { tool: "late_read", decision: "read_only", ok: true, via: undefined },
    { tool: "late_read", decision: "none", ok: false, via: "call_tool" },
    { tool: "late_write", decision: "plan", ok: false, via: "call_tool" },
  ]);
});

Deno.test("never folds every change; call_tool is then not offered", async () => {
  await using t = await setup({ defer: "never" });
  await t.turn(`Look at this:\n${BIG}`);
  assert(!t.names(0).includes("call_tool"));
  t.app.registry.register(tool("added"), plugin);
  await t.turn("go", { toolCalls: [{ name: "call_tool", arguments: '{"name":"added"}' }] });
  assertEquals(t.names(1), [...t.names(0), "added"]);
  assertEquals(t.messages(1).at(-1)!.content, "<system-reminder>Tools added: added.</system-reminder>");
  assertEquals(results(t.messages(2)), [{ ok: false, error: "Unknown tool: call_tool" }]);
});

Deno.test("always defers even a small change and folds it at the next cold point (the cache TTL passed)", async () => {
  const clock = new FakeClock();
  await using t = await setup({ defer: "always", cache_ttl_s: 0.3 }, undefined, clock);
  await t.turn("hi");
  t.app.registry.register(tool("added"), plugin);
  await t.turn("go", { toolCalls: [via("added", { text: "x" })] });
  assertEquals(t.tools(1), t.tools(0));
  assertEquals(results(t.messages(2)), [{ ok: true, echo: "added: x" }]);
  clock.advance(400);
  await t.turn("later");
  assertEquals(t.names(3), [...t.names(0), "added"], "folded once the cache was cold");
  assertEquals(t.messages(3).at(-1)!.content, "later", "the model already knew the tool: no new reminder");
  assertEquals(t.convo.agent.deferral.deferred, []);
});

Deno.test("a resume within the TTL keeps the array and the deferred tools; a resume after it folds them", async () => {
  const clock = new FakeClock();
  await using t = await setup({ defer: "always", cache_ttl_s: 1 }, undefined, clock);
  await Deno.mkdir(join(t.home, "plugins"));
  await t.turn("hi");
  await Deno.writeTextFile(
    join(t.home, "plugins", "extra.js"),
    `export default (navi) => navi.registerTool({ name: "extra", description: "- Extra.", parameters: ` +
      `navi.z.object({}), approval: "read_only", handler: () => ({ ok: true, extra: 1 }) });\n`,
  );
  await t.app.loadPlugins();
  await t.turn("deferred");
  const id = t.convo.agent.session.meta.id;
  const apps: NaviApp[] = [];
  const resume = async () => {
    const app = new NaviApp({
      home: t.home,
      workspace: t.app.workspace,
      config: t.app.config,
      builtins: builtinTools(),
      env: Deno.env,
    });
    apps.push(app);
    await app.loadPlugins();
    return openConversation(app, { resume: id, clock });
  };
  const soon = await resume();
  assertEquals(soon.agent.deferral.deferred, ["extra"], "the deferred state came back");
  t.queue.push({ toolCalls: [via("extra", {})] });
  await soon.agent.run("resumed at once", new AbortController().signal);
  assertEquals(t.tools(2), t.tools(1), "same array after the resume");
  assertEquals(t.messages(2).at(-1)!.content, "resumed at once", "no repeated reminder");
  assertEquals(results(t.messages(3)), [{ ok: true, extra: 1 }]);

  clock.advance(1200);
  const late = await resume();
  await late.agent.run("resumed later", new AbortController().signal);
  assertEquals(t.names(4), [...t.names(1), "extra"], "folded: the resume came after the TTL");
  for (const app of apps) await app.close();
});
