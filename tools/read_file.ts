import { extname } from "node:path";
import { z } from "zod";
import {
  defineTool,
  displayPath,
  looksBinary,
  MAX_IMAGE_BYTES,
  readTextFile,
  resolveInWorkspace,
  ToolError,
} from "../core/mod.ts";

const MAX_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

export default defineTool({
  name: "read_file",
  description: [
    "- Reads a text file from the workspace; each returned line starts with its line number (from 1) and a tab.",
    "- Use offset (first line, 1-based) and limit (line count, default 2000) to page through long files; " +
    "`next_offset` tells where to continue.",
    "- Images (png, jpg, gif, webp) are attached for you to look at; other binary files are refused.",
    "- Read a file before editing it with edit_file.",
  ].join("\n"),
  parameters: z.object({
    path: z.string().min(1).describe("File path, relative to the workspace or absolute."),
    offset: z.number().int().min(1).optional().describe("First line to return (1-based)."),
    limit: z.number().int().min(1).max(10_000).optional().describe(
      "Number of lines to return (default 2000).",
    ),
  }),
  approval: "read_only",
  concurrencySafe: true,
  timeoutMs: 30_000,
  async handler({ path, offset = 1, limit = 2000 }, ctx) {
    const full = await resolveInWorkspace(ctx, path);
    const shown = displayPath(ctx.workspace, full);
    const info = await Deno.stat(full).catch(() => null);
    if (!info) throw new ToolError(`File not found: ${shown}`);
    if (info.isDirectory) throw new ToolError(`${shown} is a directory; use list_dir to see its entries`);
    const mime = IMAGE_TYPES[extname(full).toLowerCase()];
    if (mime) {
      if (info.size > MAX_IMAGE_BYTES) {
        throw new ToolError(`Image ${shown} is too large (${info.size} bytes)`);
      }
      const bytes = await Deno.readFile(full);
      return {
        ok: true,
        path: shown,
        image: mime,
        bytes: bytes.length,
        note: "The image is attached after this result.",
        _multimodal: true,
        _image_data_url: `data:${mime};base64,${bytes.toBase64()}`,
      };
    }
    if (info.size > MAX_BYTES) {
      throw new ToolError(
        `${shown} is ${info.size} bytes, over the 10 MiB limit; use grep or bash (head, sed -n) on it`,
      );
    }
    const bytes = await Deno.readFile(full);
    if (looksBinary(bytes)) {
      throw new ToolError(
        `${shown} is a binary file (${bytes.length} bytes); read_file reads text only. Inspect it with bash (e.g. \`file\`, \`xxd ${shown} | head\`).`,
      );
    }
    // A routed read (an editor's buffer) is what the model sees; the local bytes only judged the file.
    const text = ctx.files ? await readTextFile(ctx, full, shown) : new TextDecoder().decode(bytes);
    const lines = text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const start = offset - 1;
    const slice = lines.slice(start, start + limit);
    const width = String(start + slice.length).length;
    const content = slice
      .map((line, i) => {
        const text = line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + " [line cut]" : line;
        return `${String(start + i + 1).padStart(Math.max(width, 6))}\t${text}`;
      })
      .join("\n");
    const end = start + slice.length;
    return {
      ok: true,
      path: shown,
      total_lines: lines.length,
      ...(end < lines.length ? { next_offset: end + 1 } : {}),
      content: start >= lines.length && lines.length > 0
        ? `(offset ${offset} is past the end of the file)`
        : content,
    };
  },
});
