// Runs a compaction: one summary request that extends the last request, then the conversation is rewritten.
import type { CompactionInfo, ContextKeeper } from "../context/mod.ts";
import { addUsage, type ChatFn, emptyUsage, isAbort, type Message, type Usage } from "../provider/mod.ts";
import type { Session } from "../session/mod.ts";
import type { OpenAITool } from "../tool/mod.ts";
import type { CacheStats } from "../toollist/mod.ts";
import { ResponseAssembler } from "./stream.ts";

/** What a compaction works with. */
export interface CompactionRun {
  /** The session whose conversation is replaced. */
  session: Session;
  /** Plans the summary request and applies the summary. */
  keeper: ContextKeeper;
  /** The session's request figures (the summary request is recorded there too). */
  cache: CacheStats;
  /** Sends the summary request. */
  chat: ChatFn;
  /** Told when the compaction starts and when it is done. */
  onCompaction?(info: CompactionInfo): void;
  /** The clock (ms since the epoch) that stamps the request record (default `Date.now`). */
  now?: () => number;
}

/**
 * Replace the conversation by a summary of it, in the same session: one summary request with `tools` (those of
 * the last request, so the provider's cache serves it; tool calls are not allowed). Returns undefined when
 * aborted or when the model gave no summary (the conversation is unchanged).
 */
export async function compactConversation(
  run: CompactionRun,
  tools: readonly OpenAITool[],
  opts: { reason: CompactionInfo["reason"]; signal: AbortSignal; usage?: Usage },
): Promise<CompactionInfo | undefined> {
  const { messages, before } = run.keeper.summaryRequest(tools);
  run.onCompaction?.({ reason: opts.reason, before });
  const summary = await summarize(run, { tools, messages, signal: opts.signal, usage: opts.usage });
  if (!summary) return undefined;
  const info = run.keeper.applySummary(tools, { summary, before, reason: opts.reason });
  run.onCompaction?.(info);
  return info;
}

async function summarize(
  run: CompactionRun,
  opts: { tools: readonly OpenAITool[]; messages: Message[]; signal: AbortSignal; usage?: Usage },
): Promise<string> {
  const { session, cache } = run;
  const at = new Date((run.now ?? Date.now)()).toISOString();
  const changed = cache.observe({ tools: opts.tools, messages: opts.messages });
  const usage = emptyUsage();
  const response = new ResponseAssembler(usage);
  try {
    const req = {
      messages: opts.messages,
      tools: opts.tools,
      cacheKey: session.meta.id,
      toolChoice: "none" as const,
    };
    for await (const chunk of run.chat(req, opts.signal)) response.add(chunk);
    if (opts.signal.aborted) return "";
  } catch (err) {
    if (isAbort(err, opts.signal)) return "";
    throw err;
  } finally {
    if (opts.usage) addUsage(opts.usage, usage);
    session.recordRequest(cache.record({
      at,
      messages: opts.messages.length,
      prompt_tokens: usage.prompt_tokens,
      cached_tokens: usage.cached_tokens,
      ...(usage.cache_write_tokens ? { cache_write_tokens: usage.cache_write_tokens } : {}),
      summary: true,
      ...(changed ? { break: changed } : {}),
    }));
  }
  return response.text.trim();
}
