import { structuredPatch } from "diff";
import type { ToolPreview } from "../mod.ts";
import type { Style } from "./style.ts";
import { printable } from "./text_width.ts";
import { escapeControls } from "../output/mod.ts";

/** A preview as lines for the terminal: a title and the body (diff lines, or a new file's first lines). */
export interface DiffView {
  title: string;
  lines: string[];
  /** Lines added and removed (a new file counts its lines as added). */
  added: number;
  removed: number;
}

/** Show a byte count as B / KB / MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function lineCount(text: string): number {
  if (!text) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** A coloured unified diff (3 lines of context, line numbers) of a file change, or a new file's first lines. */
export function diffView(preview: ToolPreview, opts: { style: Style; firstLines?: number }): DiffView {
  const { style } = opts;
  const path = escapeControls(preview.path);
  if (preview.before === null) {
    const all = preview.after.split("\n");
    if (preview.after.endsWith("\n")) all.pop();
    const first = all.slice(0, opts.firstLines ?? 10);
    const width = String(first.length).length;
    const lines = first.map((l, i) =>
      `${style.dim(String(i + 1).padStart(width))} ${style.green(printable(l))}`
    );
    if (all.length > first.length) lines.push(style.dim(`… ${all.length - first.length} more lines`));
    const size = formatSize(new TextEncoder().encode(preview.after).length);
    return { title: `create ${path} (${all.length} lines, ${size})`, lines, added: all.length, removed: 0 };
  }
  const patch = structuredPatch(path, path, preview.before, preview.after, "", "", { context: 3 });
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  const width = String(Math.max(lineCount(preview.before), lineCount(preview.after))).length;
  for (const hunk of patch.hunks) {
    lines.push(style.cyan(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = printable(line.slice(1));
      if (mark === "\\") continue;
      if (mark === "-") {
        removed++;
        lines.push(style.red(`${String(oldNo++).padStart(width)} - ${text}`));
      } else if (mark === "+") {
        added++;
        lines.push(style.green(`${String(newNo++).padStart(width)} + ${text}`));
      } else {
        lines.push(style.dim(`${String(newNo++).padStart(width)}   `) + text);
        oldNo++;
      }
    }
  }
  const what = patch.hunks.length ? `+${added} -${removed}` : "no change";
  return { title: `${path} (${what})`, lines, added, removed };
}
