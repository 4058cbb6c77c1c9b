import { z } from "zod";
import {
  defineTool,
  displayPath,
  globToRegExp,
  resolveInWorkspace,
  ToolError,
  walkFiles,
} from "../core/mod.ts";

const MAX_RESULTS = 1000;

export default defineTool({
  name: "glob",
  description: [
    "- Finds files whose path matches a glob pattern, e.g. `**/*.ts` or `src/{a,b}/*.json`.",
    "- Paths are matched and returned relative to the search directory (default: the workspace); .git is skipped.",
    "- To search file contents, use grep.",
  ].join("\n"),
  parameters: z.object({
    pattern: z.string().min(1).describe(
      "Glob pattern: * within a path segment, ** across directories, ?, {a,b}, [abc].",
    ),
    path: z.string().optional().describe(
      "Directory to search in, relative to the workspace (default: the workspace).",
    ),
  }),
  approval: "read_only",
  concurrencySafe: true,
  timeoutMs: 60_000,
  async handler({ pattern, path = "." }, ctx) {
    const root = await resolveInWorkspace(ctx, path);
    const info = await Deno.stat(root).catch(() => null);
    if (!info?.isDirectory) throw new ToolError(`Directory not found: ${displayPath(ctx.workspace, root)}`);
    const re = globToRegExp(pattern.replace(/^\.\//, ""));
    const matches: string[] = [];
    let total = 0;
    for await (const file of walkFiles(root, ctx.signal)) {
      if (!re.test(file)) continue;
      total++;
      if (matches.length < MAX_RESULTS) matches.push(file);
    }
    return {
      ok: true,
      count: total,
      files: matches.join("\n") || "(no matches)",
      ...(total > MAX_RESULTS
        ? { note: `Only the first ${MAX_RESULTS} of ${total} matches are shown.` }
        : {}),
    };
  },
});
