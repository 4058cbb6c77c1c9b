import { ToolError } from "./result.ts";
import type { FileAccess, ToolContext } from "./types.ts";

/** The local file system as {@link FileAccess}: what file tools use unless the context routes them. */
export const LOCAL_FILES: FileAccess = {
  readText: (path) => Deno.readTextFile(path),
  writeText: (path, content) => Deno.writeTextFile(path, content),
};

/**
 * Read a text file through the context's file access (the local file system by default). A failure of a
 * routed read (the editor refused) becomes a ToolError naming `shown`; a local NotFound is thrown as it is.
 */
export async function readTextFile(ctx: ToolContext, path: string, shown = path): Promise<string> {
  if (!ctx.files) return await LOCAL_FILES.readText(path);
  try {
    return await ctx.files.readText(path);
  } catch (err) {
    throw new ToolError(`${shown} could not be read: ${(err as Error).message}`);
  }
}

/** Write a text file through the context's file access (the local file system by default). */
export async function writeTextFile(ctx: ToolContext, path: string, content: string): Promise<void> {
  if (!ctx.files) return await LOCAL_FILES.writeText(path, content);
  try {
    await ctx.files.writeText(path, content);
  } catch (err) {
    throw new ToolError(`${path} could not be written: ${(err as Error).message}`);
  }
}
