import { join } from "node:path";
import { ToolRegistry } from "../../core/mod.ts";
import { builtinTools } from "../../tools/mod.ts";

const SNAPSHOT = join(import.meta.dirname!, "__snapshots__", "builtin_tools.json");

Deno.test("the built-in tools array matches the reviewed snapshot (UPDATE_SNAPSHOTS=1 to accept a change)", async () => {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  const actual = JSON.stringify(registry.toOpenAITools(), null, 2) + "\n";
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(SNAPSHOT, actual);
    return;
  }
  const expected = await Deno.readTextFile(SNAPSHOT);
  if (actual !== expected) {
    const a = actual.split("\n");
    const e = expected.split("\n");
    const line = a.findIndex((l, i) => l !== e[i]);
    throw new Error(
      `What the model sees changed at line ${line + 1} of ${SNAPSHOT}:\n- ${e[line]}\n+ ${a[line]}\n` +
        "Review the change, then run UPDATE_SNAPSHOTS=1 deno task test to accept it.",
    );
  }
});
