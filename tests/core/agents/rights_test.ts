// A subagent's rights: the intersection of its definition and what the parent may use; never a wider mode.
import { z } from "zod";
import {
  type AgentDefinition,
  BUILTIN_AGENTS,
  defineTool,
  Slots,
  stricterMode,
  subagentTools,
  ToolRegistry,
} from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { assertEquals, assertRejects } from "../../helpers.ts";

const registry = new ToolRegistry();
for (const t of builtinTools()) registry.register(t);
for (const name of ["mcp__docs__search", "mcp__docs__fetch", "mcp__git__push"]) {
  registry.register(
    defineTool({ name, description: name, parameters: z.object({}), approval: "write", handler: () => "" }),
    { kind: "mcp", origin: name.split("__")[1] },
  );
}
const all = registry.list().map((t) => t.name);
const agent = (extra: Partial<AgentDefinition>): AgentDefinition => ({
  name: "a",
  description: "d",
  prompt: "p",
  disallowedTools: [],
  level: "project",
  ...extra,
});

Deno.test("a subagent gets what its file lists and the parent may use, minus disallowedTools; task only when it may nest", () => {
  const parent = [...all, "task"];
  assertEquals(subagentTools(agent({ tools: ["read_file", "bash"] }), { parent, registry, nest: false }), [
    "read_file",
    "bash",
  ]);
  const planParent = parent.filter((n) => registry.get(n)?.approval === "read_only" || n === "task");
  assertEquals(
    subagentTools(agent({ tools: ["read_file", "bash"] }), { parent: planParent, registry, nest: false }),
    ["read_file"],
    "a parent in plan mode cannot lend bash",
  );
  assertEquals(
    subagentTools(agent({ tools: ["mcp__docs__*"] }), { parent, registry, nest: false }),
    ["mcp__docs__search", "mcp__docs__fetch"],
  );
  assertEquals(
    subagentTools(agent({ disallowedTools: ["bash", "mcp__*"] }), { parent, registry, nest: true }),
    [
      "read_file",
      "write_file",
      "edit_file",
      "list_dir",
      "glob",
      "grep",
      "bash_output",
      "kill_shell",
      "todo_write",
      "skill",
      "task",
    ],
  );
  assertEquals(subagentTools(agent({ tools: [] }), { parent, registry, nest: false }), []);
  const explore = BUILTIN_AGENTS.find((a) => a.name === "explore")!;
  assertEquals(subagentTools(explore, { parent, registry, nest: true }), [
    "read_file",
    "list_dir",
    "glob",
    "grep",
    "skill",
  ]);
});

Deno.test("a subagent's approval mode is its parent's or stricter", () => {
  assertEquals(stricterMode("ask", "auto"), "ask");
  assertEquals(stricterMode("ask", "plan"), "plan");
  assertEquals(stricterMode("plan", "auto"), "plan");
  assertEquals(stricterMode("auto", undefined), "auto");
});

Deno.test("at most max_parallel subagents hold a slot; a wait ends when its signal aborts", async () => {
  const slots = new Slots(2);
  const never = new AbortController().signal;
  const a = await slots.take(never);
  await slots.take(never);
  const order: string[] = [];
  const third = slots.take(never).then((release) => {
    order.push("third");
    return release;
  });
  const stop = new AbortController();
  const fourth = slots.take(stop.signal);
  await Promise.resolve();
  assertEquals(order, []);
  stop.abort();
  await assertRejects(() => fourth, /aborted/);
  a();
  (await third)();
  assertEquals(order, ["third"]);
});
