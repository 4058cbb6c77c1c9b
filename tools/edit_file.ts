import { z } from "zod";
import {
  defineTool,
  displayPath,
  readTextFile,
  resolveInWorkspace,
  ToolError,
  writeTextFile,
} from "../core/mod.ts";

/** Apply one edit to a file's text; throws a ToolError the model can act on. */
function applyEdit(
  text: string,
  edit: { old_string: string; new_string: string; replace_all: boolean; shown: string },
): { updated: string; count: number } {
  const { old_string, new_string, replace_all, shown } = edit;
  const count = text.split(old_string).length - 1;
  if (count === 0) {
    throw new ToolError(`old_string was not found in ${shown}; read the file and copy the text exactly`);
  }
  if (count > 1 && !replace_all) {
    throw new ToolError(
      `old_string occurs ${count} times in ${shown}; add surrounding lines to make it unique or set replace_all`,
    );
  }
  const updated = replace_all
    ? text.split(old_string).join(new_string)
    : text.replace(old_string, () => new_string);
  return { updated, count: replace_all ? count : 1 };
}

const parameters = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace or absolute."),
  old_string: z.string().min(1).describe("The exact text to replace."),
  new_string: z.string().describe("The replacement text."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of exactly one."),
});

export default defineTool({
  name: "edit_file",
  description: [
    "- Replaces an exact string in a workspace file with another string.",
    "- old_string must match the file exactly (whitespace included) and be unique, unless replace_all is true; " +
    "include surrounding lines to make it unique.",
    "- Read the file first so old_string is copied from its current content.",
  ].join("\n"),
  parameters,
  approval: "write",
  timeoutMs: 30_000,
  async handler({ path, old_string, new_string, replace_all = false }, ctx) {
    const full = await resolveInWorkspace(ctx, path, { write: true });
    const shown = displayPath(ctx.workspace, full);
    if (old_string === new_string) {
      throw new ToolError("old_string and new_string are identical; nothing to change");
    }
    const text = await readTextFile(ctx, full, shown).catch((err) => {
      throw err instanceof ToolError ? err : new ToolError(`File not found: ${shown}`);
    });
    const { updated, count } = applyEdit(text, { old_string, new_string, replace_all, shown });
    await writeTextFile(ctx, full, updated);
    return {
      ok: true,
      path: shown,
      replacements: count,
      _diff: { kind: "diff", path: shown, before: text, after: updated },
    };
  },
  async preview({ path, old_string, new_string, replace_all = false }, ctx) {
    const full = await resolveInWorkspace(ctx, path, { write: true });
    const shown = displayPath(ctx.workspace, full);
    const before = await readTextFile(ctx, full, shown);
    const { updated } = applyEdit(before, { old_string, new_string, replace_all, shown });
    return { kind: "diff", path: shown, before, after: updated };
  },
});
