// Token estimates of what navi sends: bytes / 4 of the JSON, calibrated with what the provider reports.
import type { OpenAITool, ToolSource } from "../tool/mod.ts";
import type { Message } from "../provider/mod.ts";
import { isInstructionsMessage } from "./instructions.ts";

/** The UTF-8 size of a tool or message as sent (its JSON), cached per object by the caller. */
export type BytesOf = (value: object) => number;

/** One part of a request and its estimated tokens. */
export interface ContextPart {
  /** What it is: `system prompt`, `project instructions`, `tools: built-in`, `messages (12)`... */
  part: string;
  /** Estimated tokens (calibrated). */
  tokens: number;
}

/**
 * Estimates tokens as bytes / 4 of the JSON navi sends, times a calibration ratio: after each request the
 * provider's `prompt_tokens` over the raw estimate of that request (a tokenizer's count differs by model family;
 * the provider's own count is the one that decides whether a request fits).
 */
export class TokenEstimator {
  #bytesOf: BytesOf;
  #ratio = 1;

  /** `bytesOf` sizes one tool or message (e.g. `CacheStats.part(x).bytes`, cached per object). */
  constructor(bytesOf: BytesOf) {
    this.#bytesOf = bytesOf;
  }

  /** reported / estimated tokens of the last request the provider counted (1 before any). */
  get ratio(): number {
    return this.#ratio;
  }

  /** Uncalibrated tokens (bytes / 4) of tools and messages. */
  raw(values: readonly object[]): number {
    let bytes = 0;
    for (const v of values) bytes += this.#bytesOf(v);
    return Math.ceil(bytes / 4);
  }

  /** Calibrated tokens of tools and messages. */
  estimate(values: readonly object[]): number {
    return Math.ceil(this.raw(values) * this.#ratio);
  }

  /** Learn from a request whose raw estimate was `estimated` and that the provider counted as `reported`. */
  calibrate(estimated: number, reported: number): void {
    if (estimated <= 0 || reported <= 0) return;
    this.#ratio = Math.min(4, Math.max(0.25, reported / estimated));
  }

  /**
   * A request's parts: the system prompt, the project instructions, the tools by source (built-in, each plugin
   * file, each MCP server, navi's own meta tools) and the other messages.
   */
  parts(
    request: { tools: readonly OpenAITool[]; messages: readonly Message[] },
    sourceOf: (tool: string) => ToolSource | undefined,
  ): ContextPart[] {
    const out: ContextPart[] = [];
    const { messages } = request;
    let rest = 0;
    if (messages[0]?.role === "system") {
      out.push({ part: "system prompt", tokens: this.estimate([messages[0]]) });
      rest = 1;
    }
    if (messages[rest] && isInstructionsMessage(messages[rest])) {
      out.push({ part: "project instructions", tokens: this.estimate([messages[rest]]) });
      rest++;
    }
    const bySource = new Map<string, OpenAITool[]>();
    for (const tool of request.tools) {
      const source = sourceOf(tool.function.name);
      const label = !source
        ? "tools: navi (call_tool, find_tools)"
        : source.kind === "builtin"
        ? "tools: built-in"
        : `tools: ${source.kind === "mcp" ? "MCP server" : "plugin"} ${source.origin}`;
      bySource.set(label, [...(bySource.get(label) ?? []), tool]);
    }
    for (const [part, tools] of bySource) {
      out.push({ part: `${part} (${tools.length})`, tokens: this.estimate(tools) });
    }
    const conversation = messages.slice(rest);
    out.push({ part: `messages (${conversation.length})`, tokens: this.estimate(conversation) });
    return out;
  }
}
