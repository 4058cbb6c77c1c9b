import { fnv1a, type OpenAITool, type ToolRegistry } from "../../mod.ts";
import { escapeControls } from "../../output/mod.ts";
import { makeStyle, table } from "../style.ts";

/** `navi tools [--json]`: the exact tools array of the next request, or a readable table. */
export function toolsCommand(
  from: {
    view: { tools: readonly OpenAITool[]; searchable: string[] };
    tools: Pick<ToolRegistry, "get">;
    mode: string;
  },
  opts: { json?: boolean },
): string {
  const { view, tools, mode } = from;
  const list = view.tools;
  if (opts.json) return JSON.stringify(list, null, 2);
  const style = makeStyle(Deno.stdout.isTerminal());
  const rows = list.map((t) => {
    const first = escapeControls(t.function.description.split("\n")[0].replace(/^-\s*/, ""));
    return [t.function.name, tools.get(t.function.name)?.approval ?? "-", first];
  });
  const more = view.searchable.length ? `, ${view.searchable.length} more through find_tools` : "";
  return [
    table([["NAME", "APPROVAL", "DESCRIPTION"].map(style.bold), ...rows]),
    "",
    style.dim(`${list.length} tools, mode ${mode}, fingerprint ${fnv1a(JSON.stringify(list))}${more}`),
  ].join("\n");
}
