// How a navi tool call looks in an editor: its ACP kind, title, the files it touches, its diff and result.
import type * as acp from "@agentclientprotocol/sdk";
import { isAbsolute, resolve } from "node:path";
import { summarize } from "../approval/mod.ts";
import type { ApprovalClass, ToolPreview, ToolResult } from "../tool/mod.ts";

const KINDS: Record<string, acp.ToolKind> = {
  read_file: "read",
  list_dir: "read",
  grep: "search",
  glob: "search",
  find_tools: "search",
  edit_file: "edit",
  write_file: "edit",
  bash: "execute",
};

/** The ACP kind of a tool (its icon in the editor): by name for the built-ins, else by approval class. */
export function toolKind(name: string, approval?: ApprovalClass): acp.ToolKind {
  return KINDS[name] ?? (approval === "write" ? "edit" : approval === "command" ? "execute" : "other");
}

/** A call's arguments as an object (`{}` when they are not one). */
export function argsOf(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** One line naming what the call does: the command for bash, the path for file tools, else the arguments. */
export function toolTitle(name: string, args: Record<string, unknown>): string {
  if (typeof args.command === "string") return args.command.split("\n")[0].slice(0, 200);
  if (typeof args.path === "string") return `${name} ${args.path}`;
  const rest = summarize(args, 100);
  return rest ? `${name} ${rest}` : name;
}

/** The files a call touches (its `path` argument, absolute), with the first line when it reads from one. */
export function toolLocations(args: Record<string, unknown>, workspace: string): acp.ToolCallLocation[] {
  if (typeof args.path !== "string" || !args.path) return [];
  const path = isAbsolute(args.path) ? args.path : resolve(workspace, args.path);
  return [{ path, ...(typeof args.offset === "number" ? { line: args.offset } : {}) }];
}

/** A navi diff (a preview, or the `_diff` a file tool's result carries) as ACP diff content. */
export function diffContent(diff: ToolPreview, workspace: string): acp.ToolCallContent {
  return {
    type: "diff",
    path: isAbsolute(diff.path) ? diff.path : resolve(workspace, diff.path),
    oldText: diff.before,
    newText: diff.after,
  };
}

/** Text as ACP tool-call content. */
export function textContent(text: string): acp.ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/** What the editor shows of a result: the error, the output or file content, else the result's JSON. */
export function resultText(result: ToolResult, content: string): string {
  if (!result.ok) return result.error;
  const shown = typeof result.output === "string"
    ? result.output
    : typeof result.content === "string"
    ? result.content
    : typeof result.matches === "string"
    ? result.matches
    : content;
  return "```\n" + shown.replace(/```/g, "` ` `") + "\n```";
}

/** A result without its control fields (what `rawOutput` shows). */
export function rawOutput(result: ToolResult): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result).filter(([k]) => !k.startsWith("_")));
}

/** The diff a file tool's result carries (`_diff`), when it does. */
export function resultDiff(result: ToolResult): ToolPreview | undefined {
  const d = result._diff as ToolPreview | undefined;
  return d && d.kind === "diff" && typeof d.after === "string" ? d : undefined;
}
