import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "./tool_result.ts";
import type { ToolContext } from "./tool_types.ts";

/** Whether `target` is `root` or below it (both absolute, already resolved). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && rel.split(sep)[0] !== "..");
}

async function realpathOrNearest(path: string): Promise<string> {
  let current = path;
  const tail: string[] = [];
  while (true) {
    try {
      const real = await Deno.realPath(current);
      return tail.length ? join(real, ...tail.reverse()) : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      tail.push(current.slice(parent.length).replace(/^[/\\]+/, ""));
      current = parent;
    }
  }
}

/**
 * Resolve a path given by the model against the workspace, following `..` and symlinks.
 * A path outside the workspace needs `ctx.confirm`; when refused, throws a ToolError for the model.
 */
export async function resolveInWorkspace(ctx: ToolContext, path: string): Promise<string> {
  const absolute = resolve(ctx.workspace, path);
  const real = await realpathOrNearest(absolute);
  const root = await realpathOrNearest(resolve(ctx.workspace));
  if (isInside(root, real)) return absolute;
  const allowed = await ctx.confirm({ detail: real });
  if (!allowed) {
    throw new ToolError(
      `Path ${
        JSON.stringify(path)
      } resolves outside the workspace (${real}); only paths inside ${root} are allowed`,
    );
  }
  return absolute;
}

/** Show a path relative to the workspace when it is inside it. */
export function displayPath(workspace: string, path: string): string {
  const rel = relative(workspace, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
