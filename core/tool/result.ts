import type { ToolResult } from "./types.ts";

/** The largest image a tool result attaches for the model (`read_file`, MCP results): 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Thrown inside a handler to fail the call with a message meant for the model. */
export class ToolError extends Error {}

/** The message of any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** Turn whatever a handler returned into a ToolResult. */
export function normalizeResult(value: unknown): ToolResult {
  if (typeof value === "string") return { ok: true, output: value };
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    if (obj.ok === false) {
      return { ...obj, ok: false, error: typeof obj.error === "string" ? obj.error : "Tool failed" };
    }
    return { ...obj, ok: true };
  }
  return value === undefined ? { ok: true } : { ok: true, result: value };
}

const MARKER = (n: number) => `\n[... truncated ${n} characters]`;

/**
 * Cut a result whose model-visible JSON exceeds `limit` characters; marks it `truncated: true` and keeps the
 * whole text in the control field `_full_output` (the longest string field, or else the whole JSON), which the
 * call runner saves to a file the model can read.
 */
export function truncateResult(result: ToolResult, limit: number): ToolResult {
  const cut = cutResult(result, limit);
  if (cut === result) return result;
  const longest = Object.entries(result)
    .filter(([k, v]) => !k.startsWith("_") && k !== "error" && typeof v === "string")
    .sort((a, b) => (b[1] as string).length - (a[1] as string).length)[0];
  const whole = longest && (longest[1] as string).length > limit / 2
    ? longest[1] as string
    : toModelContent(result);
  return { ...cut, _full_output: whole } as ToolResult;
}

function cutResult(result: ToolResult, limit: number): ToolResult {
  let size = toModelContent(result).length;
  if (size <= limit) return result;
  const out: Record<string, unknown> = { ...result, truncated: true };
  const strings = Object.keys(out)
    .filter((k) => !k.startsWith("_") && typeof out[k] === "string" && k !== "error")
    .sort((a, b) => (out[b] as string).length - (out[a] as string).length);
  for (const key of strings) {
    size = toModelContent(out as ToolResult).length;
    if (size <= limit) break;
    const text = out[key] as string;
    const keep = Math.max(0, text.length - (size - limit) - 64);
    out[key] = text.slice(0, keep) + MARKER(text.length - keep);
  }
  if (toModelContent(out as ToolResult).length > limit) {
    const json = toModelContent(result);
    const control = Object.fromEntries(Object.entries(result).filter(([k]) => k.startsWith("_")));
    return {
      ...control,
      ok: result.ok,
      truncated: true,
      output: json.slice(0, limit) + MARKER(json.length - limit),
    } as ToolResult;
  }
  return out as ToolResult;
}

/** The tool message content the model receives: the result without `_` control fields, as JSON. */
export function toModelContent(result: ToolResult): string {
  return JSON.stringify(result, (key, value) => (key.startsWith("_") ? undefined : value));
}
