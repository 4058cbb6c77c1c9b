import { z } from "zod";
import { defineTool, ToolError } from "../core/mod.ts";
import { unknownShell } from "./bash_output.ts";

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
    if (!report) throw unknownShell(id, ctx.shells);
    return { ok: true, ...report };
  },
});
