// Small helpers around one MCP client: a tool call through the breaker, a deadline, paging through
// tools/list, one-line errors.
import type { ToolResult } from "../tool/mod.ts";
import type { CircuitBreaker } from "./breaker.ts";
import type { McpCallOptions } from "./bridge.ts";
import { convertResult } from "./convert.ts";
import type { Client, McpTool } from "./sdk.ts";

/** What one tool call needs from its connection. */
export interface CallContext {
  /** The server's name (for error messages). */
  server: string;
  /** The connected client; absent while disconnected. */
  client?: Client;
  /** Why the server is not connected, when it is not. */
  why?: string;
  /** Fails calls fast after repeated failures. */
  breaker: CircuitBreaker;
  /** One line for a failed call. */
  explain(err: unknown): string;
  /** Completes a pending OAuth step after a 401; true when the call should be tried once more. */
  reauthorize(err: unknown): Promise<boolean>;
}

/**
 * Call one tool: fails fast when disconnected or while the breaker is open; the time limit restarts with each
 * progress notification, up to `maxMs` in all; a 401 that completes a login is retried once.
 */
export async function callTool(
  ctx: CallContext,
  call: McpCallOptions & { tool: string; args: Record<string, unknown> },
): Promise<ToolResult> {
  const { client, breaker } = ctx;
  if (!client) {
    return {
      ok: false,
      error: `MCP server '${ctx.server}' is not connected${ctx.why ? ` (${ctx.why})` : ""}`,
    };
  }
  const open = breaker.admit();
  if (open) {
    return {
      ok: false,
      error: `MCP server '${ctx.server}' is unavailable: ${open.failures} calls failed in a row; ` +
        `next try in ${Math.max(1, Math.ceil(open.waitMs / 1000))} s`,
    };
  }
  const once = () =>
    client.callTool({ name: call.tool, arguments: call.args }, undefined, {
      signal: call.signal,
      timeout: call.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: call.maxMs,
      onprogress: (p) => call.onProgress?.(p),
    });
  try {
    const result = await once().catch(async (err) => {
      if (!await ctx.reauthorize(err)) throw err;
      return await once();
    });
    breaker.succeeded();
    return convertResult(result as Parameters<typeof convertResult>[0]);
  } catch (err) {
    if (call.signal.aborted) {
      breaker.released();
      return { ok: false, error: "Aborted by the user" };
    }
    breaker.failed();
    return { ok: false, error: `MCP server '${ctx.server}': ${ctx.explain(err)}` };
  }
}

/** Run `fn`, failing with "no answer within N s" after `ms`. */
export async function withDeadline(ms: number, fn: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every tool of the server, following `nextCursor` pages. */
export async function listAll(client: Client, timeout: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** `text` on one line, at most 300 characters. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}
