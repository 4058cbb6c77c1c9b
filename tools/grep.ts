import { join } from "node:path";
import type { RE2JS } from "re2js";
import { z } from "zod";
import {
  defineTool,
  displayPath,
  globToRegExp,
  looksBinary,
  resolveInWorkspace,
  ToolError,
  walkFiles,
} from "../core/mod.ts";

const MAX_MATCHES = 500;
const MAX_LINE = 300;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** How long matching runs before it lets timers and Ctrl-C in. */
const SLICE_MS = 20;

/**
 * Compile a JavaScript-syntax pattern for RE2 (re2js, loaded on first use): matching takes time linear in
 * the text, so no pattern can hang navi. Lookahead and backreferences have no linear-time form and are
 * refused.
 */
async function compile(pattern: string): Promise<RE2JS> {
  const { RE2JS } = await import("re2js");
  try {
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i] !== "\\") continue;
      if (pattern[i + 1] === "k") throw new Error("named backreference `\\k<...>`");
      i++;
    }
    return RE2JS.compile(RE2JS.translateRegExp(pattern), RE2JS.LOOKBEHINDS);
  } catch (err) {
    throw new ToolError(
      `Invalid regular expression: ${(err as Error).message}. grep matches in linear time (RE2), so ` +
        "lookahead and backreferences are not available; rewrite the pattern without them",
    );
  }
}

export default defineTool({
  name: "grep",
  description: [
    "- Searches file contents with a regular expression (JavaScript syntax, without lookahead or " +
    "backreferences) and returns `file:line:text` lines.",
    "- path limits the search to a file or directory; glob filters file paths (e.g. `**/*.ts`).",
    "- Skips .git and binary files; at most 500 matches are returned.",
  ].join("\n"),
  parameters: z.object({
    pattern: z.string().min(1).describe("Regular expression (JavaScript syntax) to search for."),
    path: z.string().optional().describe(
      "File or directory to search, relative to the workspace (default: all).",
    ),
    glob: z.string().optional().describe("Only search files whose relative path matches this glob."),
  }),
  approval: "read_only",
  concurrencySafe: true,
  timeoutMs: 60_000,
  async handler({ pattern, path = ".", glob }, ctx) {
    const re = await compile(pattern);
    const root = await resolveInWorkspace(ctx, path);
    const info = await Deno.stat(root).catch(() => null);
    if (!info) throw new ToolError(`Path not found: ${displayPath(ctx.workspace, root)}`);
    const filter = glob ? globToRegExp(glob) : null;
    const files = info.isDirectory ? walkFiles(root, ctx.signal) : single(root);
    const out: string[] = [];
    let total = 0;
    let slice = performance.now();
    for await (const rel of files) {
      const full = info.isDirectory ? join(root, rel) : root;
      if (filter && !filter.test(info.isDirectory ? rel : displayPath(ctx.workspace, full))) continue;
      const stat = await Deno.stat(full).catch(() => null);
      if (!stat || stat.size > MAX_FILE_BYTES) continue;
      const bytes = await Deno.readFile(full).catch(() => null);
      if (!bytes || looksBinary(bytes)) continue;
      const shown = displayPath(ctx.workspace, full);
      const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        if (performance.now() - slice > SLICE_MS) {
          await new Promise((r) => setTimeout(r, 0));
          if (ctx.signal.aborted) throw new ToolError("grep was stopped");
          slice = performance.now();
        }
        if (!re.test(lines[i])) continue;
        total++;
        if (out.length < MAX_MATCHES) {
          const text = lines[i].length > MAX_LINE ? lines[i].slice(0, MAX_LINE) + "…" : lines[i];
          out.push(`${shown}:${i + 1}:${text}`);
        }
      }
    }
    return {
      ok: true,
      count: total,
      matches: out.join("\n") || "(no matches)",
      ...(total > MAX_MATCHES
        ? { note: `Only the first ${MAX_MATCHES} of ${total} matches are shown.` }
        : {}),
    };
  },
});

async function* single(path: string): AsyncGenerator<string> {
  yield path;
}
