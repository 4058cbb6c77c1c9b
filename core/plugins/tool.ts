import type { ToolDefinitionData } from "./protocol.ts";
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TIMEOUT_MS,
  errorMessage,
  normalizeResult,
  parseArguments,
  type Tool,
  type ToolResult,
  truncateResult,
} from "../tool/mod.ts";

/** Runs one call of a plugin tool in its worker. */
export type PluginCall = (
  tool: string,
  args: Record<string, unknown>,
  opts: { signal: AbortSignal; timeoutMs: number },
) => Promise<ToolResult>;

/**
 * A plugin tool as navi's registry holds it: the definition (from the cache or a registration worker) and a
 * `run` that sends the call to the plugin's worker. The worker validates the arguments with the plugin's zod
 * schema; navi applies the timeout and the truncation rules.
 */
export function pluginTool(def: ToolDefinitionData, call: PluginCall, warm?: () => void): Tool {
  const timeoutMs = def.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS;
  return {
    name: def.name,
    description: def.description,
    approval: def.approval,
    concurrencySafe: def.concurrencySafe,
    timeoutMs,
    maxOutputChars,
    inputSchema: def.inputSchema,
    warm,
    async run(raw, ctx) {
      try {
        const args = parseArguments(def.name, raw);
        if (ctx.signal.aborted) return { ok: false, error: "Aborted by the user" };
        const result = await call(def.name, args, { signal: ctx.signal, timeoutMs });
        return truncateResult(normalizeResult(result), maxOutputChars);
      } catch (err) {
        return { ok: false, error: errorMessage(err) };
      }
    },
  };
}
