import { z } from "zod";
import { defineTool, displayPath, resolveInWorkspace, ToolError } from "../core/mod.ts";

const MAX_ENTRIES = 1000;

export default defineTool({
  name: "list_dir",
  description: [
    "- Lists the entries of a directory in the workspace (default: the workspace root), sorted by name.",
    "- Directories end with `/`; files show their size in bytes.",
    "- To find files by name pattern across the tree, use glob instead.",
  ].join("\n"),
  parameters: z.object({
    path: z.string().optional().describe(
      "Directory path, relative to the workspace (default: the workspace).",
    ),
  }),
  approval: "read_only",
  concurrencySafe: true,
  timeoutMs: 30_000,
  async handler({ path = "." }, ctx) {
    const full = await resolveInWorkspace(ctx, path);
    const shown = displayPath(ctx.workspace, full) || ".";
    const entries: { name: string; dir: boolean; size?: number }[] = [];
    try {
      for await (const e of Deno.readDir(full)) {
        const size = e.isFile ? (await Deno.lstat(`${full}/${e.name}`).catch(() => null))?.size : undefined;
        entries.push({ name: e.name, dir: e.isDirectory, size });
      }
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) throw new ToolError(`Directory not found: ${shown}`);
      if (err instanceof Error && /Not a directory/i.test(err.message)) {
        throw new ToolError(`${shown} is a file, not a directory; use read_file`);
      }
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const lines = entries.slice(0, MAX_ENTRIES).map((e) =>
      e.dir ? `${e.name}/` : `${e.name}  (${e.size ?? "?"} bytes)`
    );
    return {
      ok: true,
      path: shown,
      count: entries.length,
      entries: lines.join("\n") || "(empty directory)",
      ...(entries.length > MAX_ENTRIES ? { note: `Only the first ${MAX_ENTRIES} entries are shown.` } : {}),
    };
  },
});
