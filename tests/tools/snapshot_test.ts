import { join } from "node:path";
import {
  AgentCatalog,
  deferralSettings,
  taskTool,
  ToolDeferral,
  ToolPool,
  ToolRegistry,
} from "../../core/mod.ts";
import { builtinTools } from "../../tools/mod.ts";

const SNAPSHOTS = join(import.meta.dirname!, "__snapshots__");

async function matchesSnapshot(file: string, actual: string): Promise<void> {
  const path = join(SNAPSHOTS, file);
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(path, actual);
    return;
  }
  const expected = await Deno.readTextFile(path);
  if (actual !== expected) {
    const a = actual.split("\n");
    const e = expected.split("\n");
    const line = a.findIndex((l, i) => l !== e[i]);
    throw new Error(
      `What the model sees changed at line ${line + 1} of ${path}:\n- ${e[line]}\n+ ${a[line]}\n` +
        "Review the change, then run UPDATE_SNAPSHOTS=1 deno task test to accept it.",
    );
  }
}

Deno.test("the built-in tools array matches the reviewed snapshot (UPDATE_SNAPSHOTS=1 to accept a change)", async () => {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  await matchesSnapshot("builtin_tools.json", JSON.stringify(registry.toOpenAITools(), null, 2) + "\n");
});

Deno.test("navi's call_tool and find_tools (sent after the built-ins) match the reviewed snapshot", async () => {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  const pool = new ToolPool(registry, { readOnly: () => false });
  const { tools } = new ToolDeferral(pool, registry, { settings: deferralSettings() }).view();
  await matchesSnapshot(
    "meta_tools.json",
    JSON.stringify(tools.slice(builtinTools().length), null, 2) + "\n",
  );
});

Deno.test("the task tool with the built-in agents (sent after the built-ins) matches the reviewed snapshot", async () => {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  registry.register(taskTool(AgentCatalog.builtin()));
  await matchesSnapshot(
    "task_tool.json",
    JSON.stringify(registry.toOpenAITools().slice(builtinTools().length), null, 2) + "\n",
  );
});
