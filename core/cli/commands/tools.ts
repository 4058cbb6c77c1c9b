import type { ToolPool, ToolRegistry } from "../../mod.ts";
import { makeStyle, table } from "../style.ts";

/** `navi tools [--json]`: the exact tools array of the next request, or a readable table. */
export function toolsCommand(
  from: { pool: ToolPool; tools: Pick<ToolRegistry, "get">; mode: string },
  opts: { json?: boolean },
): string {
  const { pool, tools, mode } = from;
  const list = pool.peek();
  if (opts.json) return JSON.stringify(list, null, 2);
  const style = makeStyle(Deno.stdout.isTerminal());
  const rows = list.map((t) => {
    const first = t.function.description.split("\n")[0].replace(/^-\s*/, "");
    return [t.function.name, tools.get(t.function.name)?.approval ?? "?", first];
  });
  return [
    table([["NAME", "APPROVAL", "DESCRIPTION"].map(style.bold), ...rows]),
    "",
    style.dim(`${list.length} tools, mode ${mode}, fingerprint ${pool.fingerprint(list)}`),
  ].join("\n");
}
