import type { ToolCall } from "../provider/mod.ts";
import { errorMessage, parseArguments, type Tool } from "../tool/mod.ts";
import { CALL_TOOL, FIND_TOOLS } from "./search.ts";

/** A tool call resolved to the tool that runs it: `call_tool` calls name their real tool here. */
export interface RoutedCall {
  /** The call as it runs: the real tool name and its arguments. */
  call: ToolCall;
  /** The tool to run; absent when `error` says why not. */
  tool?: Tool;
  /** Why the call cannot run, as the model is told. */
  error?: string;
  /** `call_tool` when the model called the tool through it. */
  via?: string;
}

/**
 * Resolve one tool call: a `call_tool` call becomes a call of the tool it names (same id, that tool's
 * arguments, `via: "call_tool"`); `find_tools` runs the search; any other name is looked up with `lookup`
 * (`"removed"`: offered earlier, gone now; undefined: never offered). `meta` is absent when the request had no
 * call_tool.
 */
export function routeCall(
  call: ToolCall,
  opts: { meta?: { find: Tool }; lookup(name: string): Tool | "removed" | undefined },
): RoutedCall {
  let target = call;
  let via: string | undefined;
  if (opts.meta && call.name === CALL_TOOL) {
    let args: Record<string, unknown>;
    try {
      args = parseArguments(CALL_TOOL, call.arguments);
    } catch (err) {
      return { call, error: errorMessage(err) };
    }
    const name = args.name;
    if (typeof name !== "string" || !name || name === CALL_TOOL) {
      return { call, error: `${CALL_TOOL} needs "name": the exact name of the tool to call` };
    }
    const inner = args.arguments ?? {};
    target = { id: call.id, name, arguments: typeof inner === "string" ? inner : JSON.stringify(inner) };
    via = CALL_TOOL;
  }
  const name = target.name;
  if (opts.meta && name === FIND_TOOLS) return { call: target, tool: opts.meta.find, via };
  const tool = opts.lookup(name);
  if (tool === "removed") {
    return { call: target, via, error: `Tool ${name} was removed; it can no longer be called` };
  }
  if (tool) return { call: target, tool, via };
  return { call: target, via, error: `Unknown tool: ${name}` };
}
