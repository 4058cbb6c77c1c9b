import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../core/mod.ts";

export default defineTool({
  name: "bash_output",
  description: [
    "- Returns the new output of a background shell (started by bash with run_in_background) since it was last read, with its status (running, exited, killed) and exit code.",
    "- filter keeps only the lines matching a regular expression (JavaScript syntax, without lookahead or backreferences); the other new lines are skipped for good.",
    "- When there is more new output than fits, the newest part is returned and the note says where the whole log is.",
  ].join("\n"),
  parameters: z.object({
    id: z.string().min(1).describe("The shell id bash returned, e.g. shell_1."),
    filter: z.string().min(1).optional().describe("Only lines matching this regular expression."),
  }),
  approval: "read_only",
  concurrencySafe: true,
  async handler({ id, filter }, ctx) {
    if (!ctx.shells) throw new ToolError("Background shells are not available here");
    const keep = filter ? await lineFilter(filter) : undefined;
    const report = await ctx.shells.read(id, { keep });
    if (!report) throw unknownShell(id, ctx.shells);
    return { ok: true, ...report };
  },
});

/** A line test for `pattern` (RE2 through re2js: linear time, so no pattern can hang navi). */
async function lineFilter(pattern: string): Promise<(line: string) => boolean> {
  const { RE2JS } = await import("re2js");
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return (line) => re.matcher(line).find();
  } catch (err) {
    throw new ToolError(
      `Invalid filter: ${(err as Error).message}. Filters match in linear time (RE2): lookahead and ` +
        "backreferences are not available",
    );
  }
}

/** The error for a shell id the session does not have: one of an earlier run (its log), or the ids there are. */
export function unknownShell(id: string, shells: NonNullable<ToolContext["shells"]>): ToolError {
  const log = shells.earlier?.(id);
  if (log) {
    return new ToolError(
      `${id} belonged to an earlier run of this session and was stopped when that run ended; its output is in ${log} (read_file)`,
    );
  }
  const ids = shells.list().map((s) => s.id);
  return new ToolError(
    `No background shell ${id} in this session${ids.length ? ` (shells: ${ids.join(", ")})` : ""}`,
  );
}
