// Hooks and approval in the one place every tool call passes (ToolCallRunner): deny always wins, ask forces
// the question (refused without anyone to ask), allow skips it but never overrides a deny rule or plan mode;
// updatedInput is checked against the tool's parameters; calls routed through call_tool see the real tool.
import { z } from "zod";
import { join } from "node:path";
import { assertEquals, tempDir } from "../../helpers.ts";
import {
  type ApprovalMode,
  ApprovalPolicy,
  defineTool,
  Session,
  ToolCallRunner,
  ToolRegistry,
} from "../../../core/mod.ts";
import { Hooks, loadHooks } from "../../../core/hooks/mod.ts";

const ran: string[] = [];
const registry = new ToolRegistry();
registry.register(defineTool({
  name: "deploy",
  description: "- Deploys.",
  parameters: z.object({ target: z.enum(["staging", "prod"]) }),
  approval: "command",
  handler: ({ target }) => (ran.push(target), { ok: true, deployed: target }),
}));
registry.register(defineTool({
  name: "peek",
  description: "- Reads.",
  parameters: z.object({}),
  approval: "read_only",
  handler: () => (ran.push("peek"), { ok: true }),
}));

const decide = (permission: string, extra: Record<string, unknown> = {}) =>
  `echo '${
    JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: permission, ...extra },
    })
  }'`;

async function runner(
  dir: string,
  opts: { command: string; mode?: ApprovalMode; deny?: string[]; asked?: string[]; matcher?: string },
) {
  const path = join(dir, "config.json");
  const text = JSON.stringify({
    hooks: {
      PreToolUse: [{
        matcher: opts.matcher ?? "deploy|peek",
        hooks: [{ type: "command", command: opts.command }],
      }],
    },
  });
  const loaded = await loadHooks([{ path, text, source: { file: path, level: "user", vocabulary: "navi" } }]);
  const session = Session.create(dir, { cwd: dir });
  const hooks = new Hooks({
    commands: loaded.hooks,
    workspace: dir,
    childEnv: () => ({ PATH: Deno.env.get("PATH")! }),
  });
  const policy = new ApprovalPolicy({
    mode: opts.mode ?? "ask",
    deny: opts.deny,
    ask: opts.asked && ((q) => (opts.asked!.push(q.tool), Promise.resolve("yes"))),
  });
  const notices: string[] = [];
  const calls = new ToolCallRunner({
    registry,
    policy,
    session,
    workspace: dir,
    route: (call) => ({ call, tool: registry.get(call.name), via: "call_tool" }),
    hooks: hooks.session({
      sessionId: session.meta.id,
      transcriptPath: session.file,
      mode: () => policy.mode,
    }),
    notice: (l) => notices.push(l),
  });
  const runWith = async (name: string, args: Record<string, unknown>, signal: AbortSignal) => {
    ran.length = 0;
    await calls.run([{ id: "c1", name, arguments: JSON.stringify(args) }], signal);
    const last = session.messages.at(-1)!;
    return { result: JSON.parse(String(last.content)), ran: [...ran] };
  };
  const run = (name: string, args: Record<string, unknown>) =>
    runWith(name, args, new AbortController().signal);
  return { run, runWith, notices };
}

Deno.test("allow skips the question in ask mode, even with nobody to ask", async () => {
  await using d = await tempDir();
  const t = await runner(d.path, { command: decide("allow") });
  assertEquals(await t.run("deploy", { target: "staging" }), {
    result: { ok: true, deployed: "staging" },
    ran: ["staging"],
  });
});

Deno.test("allow never overrides a deny rule or plan mode", async () => {
  await using d = await tempDir();
  const denied = await runner(d.path, { command: decide("allow"), deny: ["deploy"] });
  assertEquals((await denied.run("deploy", { target: "prod" })).ran, []);
  const plan = await runner(d.path, { command: decide("allow"), mode: "plan" });
  const r = await plan.run("deploy", { target: "prod" });
  assertEquals([r.ran, r.result.error], [[], "Not allowed in plan mode: deploy can change things"]);
});

Deno.test("deny wins over auto mode and a read-only tool; the model gets the reason", async () => {
  await using d = await tempDir();
  const t = await runner(d.path, {
    command: decide("deny", { permissionDecisionReason: "frozen today" }),
    mode: "auto",
  });
  assertEquals(await t.run("deploy", { target: "prod" }), {
    result: { ok: false, error: "frozen today" },
    ran: [],
  });
  assertEquals(await t.run("peek", {}), { result: { ok: false, error: "frozen today" }, ran: [] });
});

Deno.test("ask forces the question, also for read-only tools and in auto mode; without anyone to ask it is refused", async () => {
  await using d = await tempDir();
  const asked: string[] = [];
  const t = await runner(d.path, { command: decide("ask"), mode: "auto", asked });
  assertEquals((await t.run("peek", {})).ran, ["peek"]);
  assertEquals((await t.run("deploy", { target: "staging" })).ran, ["staging"]);
  assertEquals(asked, ["peek", "deploy"]);
  const alone = await runner(d.path, { command: decide("ask"), mode: "auto" });
  const r = await alone.run("peek", {});
  assertEquals([r.ran, r.result.ok], [[], false]);
});

Deno.test("updatedInput replaces the arguments when valid, and is refused naming the field when not", async () => {
  await using d = await tempDir();
  const good = await runner(d.path, { command: decide("allow", { updatedInput: { target: "staging" } }) });
  assertEquals((await good.run("deploy", { target: "prod" })).ran, ["staging"]);
  const bad = await runner(d.path, { command: decide("allow", { updatedInput: { target: "moon" } }) });
  const r = await bad.run("deploy", { target: "prod" });
  assertEquals(r.ran, []);
  assertEquals(
    String(r.result.error).startsWith("A PreToolUse hook's updatedInput is not valid: "),
    true,
    r.result.error,
  );
  assertEquals(String(r.result.error).includes("target"), true);
});

Deno.test("a hook that fails (exit 1) is one notice and does not block the call", async () => {
  await using d = await tempDir();
  const t = await runner(d.path, { command: "echo broken >&2; exit 1", mode: "auto" });
  assertEquals((await t.run("deploy", { target: "staging" })).ran, ["staging"]);
  assertEquals(t.notices, ["hook echo broken >&2; exit 1 exited 1: broken"]);
});

Deno.test("a matcher that does not match leaves the call to the approval policy", async () => {
  await using d = await tempDir();
  const t = await runner(d.path, { command: decide("deny"), matcher: "peek" });
  const r = await t.run("deploy", { target: "prod" });
  assertEquals([r.ran, r.result.ok], [[], false], "ask mode without anyone to ask refuses");
  assertEquals(String(r.result.error).startsWith("Not approved"), true);
});

Deno.test("Ctrl-C while a PreToolUse hook runs ends the hook and the call never runs", async () => {
  await using d = await tempDir();
  const t = await runner(d.path, { command: "sleep 20", mode: "auto" });
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 200);
  const started = performance.now();
  const r = await t.runWith("deploy", { target: "staging" }, stop.signal);
  assertEquals([r.ran, r.result], [[], { ok: false, error: "Aborted by the user" }]);
  assertEquals(performance.now() - started < 5_000, true);
});
