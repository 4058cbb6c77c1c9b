import { dirname } from "node:path";
import { z } from "zod";
import { defineTool, displayPath, resolveInWorkspace } from "../core/mod.ts";

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
    const existed = await Deno.stat(full).then(() => true, () => false);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, content);
    return {
      ok: true,
      path: displayPath(ctx.workspace, full),
      bytes: new TextEncoder().encode(content).length,
      created: !existed,
    };
  },
  async preview({ path, content }, ctx) {
    const full = await resolveInWorkspace(ctx, path, { write: true });
    const before = await Deno.readTextFile(full).catch((err) => {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    });
    return { kind: "diff", path: displayPath(ctx.workspace, full), before, after: content };
  },
});
