// Micro benchmarks of what runs before every model request. `deno task bench` (or `deno bench -A bench/`).
import { z } from "zod";
import { defineTool, evolve, ToolPool, ToolRegistry } from "../core/mod.ts";

function registryOf(n: number): ToolRegistry {
  const r = new ToolRegistry();
  for (let i = 0; i < n; i++) {
    r.register(defineTool({
      name: `tool_${i}`,
      description: `- Tool number ${i}.\n- It takes a path and a count.`,
      parameters: z.object({ path: z.string().describe("A path."), count: z.number().int().optional() }),
      approval: "read_only",
      handler: () => ({ ok: true }),
    }));
  }
  return r;
}

for (const n of [10, 100, 1000]) {
  const registry = registryOf(n);
  const list = registry.toOpenAITools();
  const rebuilt = registry.toOpenAITools();
  const appended = [...list, registryOf(1).toOpenAITools()[0]];
  const pool = new ToolPool(registry, { readOnly: () => false });
  pool.sync();

  Deno.bench({
    name: `toOpenAITools, ${n} tools`,
    group: `build ${n}`,
    baseline: true,
    fn: () => void registry.toOpenAITools(),
  });
  Deno.bench({
    name: `JSON.stringify of the list, ${n} tools`,
    group: `build ${n}`,
    fn: () => void JSON.stringify(list),
  });
  Deno.bench({ name: `pool.json() reused, ${n} tools`, group: `build ${n}`, fn: () => void pool.json() });

  Deno.bench({
    name: `evolve, nothing changed, ${n} tools`,
    group: `evolve ${n}`,
    baseline: true,
    fn: () => void evolve(list, rebuilt),
  });
  Deno.bench({
    name: `evolve, one tool appended, ${n} tools`,
    group: `evolve ${n}`,
    fn: () => void evolve(list, appended),
  });
  Deno.bench({
    name: `pool.sync(), nothing changed, ${n} tools`,
    group: `evolve ${n}`,
    fn: () => void pool.sync(),
  });
}
