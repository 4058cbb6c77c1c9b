import type { NaviPluginApi, ToolContext } from "../navi.d.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function pick<T extends Json>(value: T, path: string[]): Json | undefined {
  let current: Json | undefined = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[Number(key)] : current[key];
  }
  return current;
}

export default function register(navi: NaviPluginApi): void {
  navi.registerTool({
    name: "json_query",
    description: [
      "- Reads a JSON file in the workspace and returns the value at a dotted path (e.g. `scripts.test`).",
      "- Use it instead of reading a whole large JSON file.",
    ].join("\n"),
    parameters: navi.z.object({
      path: navi.z.string().describe("JSON file, relative to the workspace."),
      query: navi.z.string().describe(
        "Dotted path; array items by index (`items.0.name`); empty for the root.",
      ),
    }),
    approval: "read_only",
    concurrencySafe: true,
    async handler({ path, query }, ctx: ToolContext) {
      if (path.includes("..") || path.startsWith("/")) {
        return { ok: false, error: "path must stay in the workspace" };
      }
      const text = await Deno.readTextFile(`${ctx.workspace}/${path}`);
      const value = pick(JSON.parse(text) as Json, query ? query.split(".") : []);
      return value === undefined
        ? { ok: false, error: `nothing at ${query} in ${path}` }
        : { ok: true, value };
    },
  });
}
