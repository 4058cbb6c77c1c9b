import { z } from "zod";
import { defineTool, ToolError } from "../core/mod.ts";

export default defineTool({
  name: "kill_shell",
  description: [
    "- Stops a background shell started by bash with run_in_background, with every process it started (SIGTERM, then SIGKILL after two seconds).",
    "- Returns its final status and the output it printed since it was last read.",
  ].join("\n"),
  parameters: z.object({
    id: z.string().min(1).describe("The shell id bash returned, e.g. shell_1."),
  }),
  approval: "read_only",
  timeoutMs: 30_000,
  async handler({ id }, ctx) {
    if (!ctx.shells) throw new ToolError("Background shells are not available here");
    const report = await ctx.shells.kill(id);
    if (!report) {
      const log = ctx.shells.earlier?.(id);
      if (log) {
        throw new ToolError(
          `${id} belonged to an earlier run of this session and was stopped when that run ended; its output is in ${log} (read_file)`,
        );
      }
      const ids = ctx.shells.list().map((s) => s.id);
      throw new ToolError(
        `No background shell ${id} in this session${ids.length ? ` (shells: ${ids.join(", ")})` : ""}`,
      );
    }
    return { ok: true, ...report };
  },
});
