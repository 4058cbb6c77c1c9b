import { dirname } from "node:path";
import { z } from "zod";
import { defineTool, displayPath, readTextFile, resolveInWorkspace, writeTextFile } from "../core/mod.ts";

export default defineTool({
  name: "write_file",
  description: [
    "- Writes a whole file in the workspace, creating it and its parent directories when missing.",
    "- Replaces the entire content of an existing file; for small changes prefer edit_file.",
  ].join("\n"),
  parameters: z.object({
    path: z.string().min(1).describe("File path, relative to the workspace or absolute."),
    content: z.string().describe("The complete new content of the file."),
  }),
  approval: "write",
  timeoutMs: 30_000,
  async handler({ path, content }, ctx) {
    const full = await resolveInWorkspace(ctx, path, { write: true });
    const shown = displayPath(ctx.workspace, full);
    const existed = await Deno.stat(full).then(() => true, () => false);
    const before = existed ? await readTextFile(ctx, full, shown).catch(() => null) : null;
    await Deno.mkdir(dirname(full), { recursive: true });
    await writeTextFile(ctx, full, content);
    return {
      ok: true,
      path: shown,
      bytes: new TextEncoder().encode(content).length,
      created: !existed,
      _diff: { kind: "diff", path: shown, before, after: content },
    };
  },
  async preview({ path, content }, ctx) {
    const full = await resolveInWorkspace(ctx, path, { write: true });
    const exists = await Deno.stat(full).then(() => true, () => false);
    const before = exists ? await readTextFile(ctx, full) : null;
    return { kind: "diff", path: displayPath(ctx.workspace, full), before, after: content };
  },
});
