import type { NaviApp } from "../app.ts";
import { makeStyle, table } from "../output.ts";

/** `navi tools [--json]`: the exact tools array of the next request, or a readable table. */
export function toolsCommand(app: NaviApp, opts: { json?: boolean }): string {
  const pool = app.createPool();
  const list = pool.current();
  if (opts.json) return JSON.stringify(list, null, 2);
  const style = makeStyle(Deno.stdout.isTerminal());
  const rows = list.map((t) => {
    const tool = app.registry.get(t.function.name);
    const first = t.function.description.split("\n")[0].replace(/^-\s*/, "");
    return [t.function.name, tool?.approval ?? "?", first];
  });
  return [
    table([["NAME", "APPROVAL", "DESCRIPTION"].map(style.bold), ...rows]),
    "",
    style.dim(`${list.length} tools, mode ${app.approvalMode}, fingerprint ${pool.fingerprint(list)}`),
  ].join("\n");
}
