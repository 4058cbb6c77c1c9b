// The records of a session file (one JSON object per line) and how a file is read back.
import type { OpenAITool, TodoItem } from "../tool/mod.ts";
import type { Message, Usage } from "../provider/mod.ts";

/** The metadata record that opens every session file. */
export interface SessionMeta {
  /** The session id: creation time plus a random suffix; also the file name. */
  id: string;
  /** When the session was created (ISO 8601). */
  created: string;
  /** The workspace the session was started in. */
  cwd: string;
  /** The provider at creation, when one could be resolved. */
  provider?: string;
  /** The model at creation, when one could be resolved. */
  model?: string;
  /** A fork: the session it was copied from and the checkpoint whose history it took (absent: all of it). */
  forked_from?: { id: string; turn?: number };
  /** A subagent's transcript: its parent session, its number there and the agent's name. */
  subagent_of?: { id: string; n: number; agent: string };
}

/** What a parent session keeps of one subagent run (its transcript is `<session>/agents/<n>.jsonl`). */
export interface SubagentRecord {
  /** Its number within the session, from 1. */
  n: number;
  /** The agent's name. */
  agent: string;
  /** What it was asked to do, in a few words. */
  description: string;
  /** When it started (ISO 8601). */
  at: string;
  /** Whether it answered. */
  ok: boolean;
  /** Why not, when it did not. */
  error?: string;
  /** How long it ran, in milliseconds. */
  ms: number;
  /** The model it ran on. */
  model: string;
  /** Its tokens. */
  usage: Usage;
}

/**
 * A checkpoint: the point just before a user turn (or a rewind) that `navi rewind` can go back to. The file's
 * records up to it are the conversation at that point; the checkpoint store keeps the files changed after it.
 */
export interface CheckpointRecord {
  /** Its number in the session, from 1 (a turn's number is its checkpoint's). */
  n: number;
  /** When it was taken (ISO 8601). */
  at: string;
  /** Before a user turn, or before a rewind (so that the rewind can be undone). */
  kind: "turn" | "rewind";
  /** The turn's prompt, cut to 200 characters. */
  prompt?: string;
  /** A rewind: the turn it went back to (its end) and what it restored. */
  to?: number;
  /** A rewind: `code`, `conversation` or both. */
  restored?: "both" | "code" | "conversation";
}

/** One audit record per tool call; never sent to the model. */
export interface AuditRecord {
  /** The tool the model called. */
  tool: string;
  /** How approval was decided (a Decision's `how`), or `none` when the call failed before that. */
  decision: string;
  /** Milliseconds the tool ran (or, for a call that never ran, the time until it failed). */
  ms: number;
  /** Whether the result was a success. */
  ok: boolean;
  /** The error of a failed call. */
  error?: string;
  /** `call_tool` when the model called the tool through it (the tool is still the real tool's name). */
  via?: string;
}

/** One hook run as the session's audit records it (`{"type": "hook", ...}`). */
export interface HookRecord {
  /** The event. */
  event: string;
  /** Where the hook was configured: `file:line`, or `plugin <name>`. */
  source: string;
  /** The command (secrets redacted). */
  command: string;
  /** Its exit code; null when it was ended (`ended` says why). */
  exit: number | null;
  /** `timeout`, `aborted` or why it did not start. */
  ended?: string;
  /** Milliseconds it ran. */
  ms: number;
  /** What it decided: block, deny, ask, allow, error or ok. */
  result: string;
}

/** One model request as the session records it (for the hit ratio, cache breaks and the cache TTL). */
export interface RequestRecord {
  /** When the request went out (ISO 8601). */
  at: string;
  /** How many messages it sent (a prefix of the session's messages). */
  messages: number;
  /** Prompt tokens, as the provider reported them (0 when it did not). */
  prompt_tokens: number;
  /** Prompt tokens served from the provider's cache. */
  cached_tokens: number;
  /** Prompt tokens written to the provider's cache (Anthropic's cache_creation), when it reported any. */
  cache_write_tokens?: number;
  /** The first part that differed from the previous request, when it did not extend that request's prefix. */
  break?: string;
  /** A compaction's summary request: its messages are the conversation plus the summary instruction. */
  summary?: boolean;
}

/** What the session keeps of deferred changes (for a resume). */
export interface DeferredState {
  /** Tools announced in reminders since the array was last folded, with the announced definitions. */
  announced: OpenAITool[];
  /** Tools still in the array that the model was told are removed. */
  withdrawn: string[];
}

/** One line of a session file. */
export type SessionRecord =
  | ({ type: "meta" } & SessionMeta)
  | { type: "message"; message: Message }
  | { type: "tools"; tools: readonly OpenAITool[] }
  | ({ type: "request" } & RequestRecord)
  | ({ type: "deferred" } & DeferredState)
  | ({ type: "audit"; at: string } & AuditRecord)
  | ({ type: "hook"; at: string } & HookRecord)
  | ({ type: "usage"; model: string } & Usage)
  | ({ type: "rewrite" } & RewriteRecord)
  | ({ type: "checkpoint" } & CheckpointRecord)
  | { type: "todos"; items: TodoItem[] }
  | ({ type: "subagent" } & SubagentRecord);

/**
 * The conversation was rewritten: from this record on it is `messages` (plus what follows). Written by
 * compaction, by `/context reload` and by a rewind; the messages before it stay in the file for audit.
 */
export interface RewriteRecord {
  /** Why: a compaction (automatic or `/compact`), reloaded project instructions, or a rewind to a turn. */
  reason: "compaction" | "instructions" | "rewind";
  /** The conversation from here on. */
  messages: Message[];
  /** The summary the compaction produced. */
  summary?: string;
  /** Estimated tokens of the conversation before and after. */
  tokens?: { before: number; after: number };
}

/** Parse the lines of a session file; returns the records and the (1-based) numbers of corrupt lines. */
export function parseLines(text: string): { records: SessionRecord[]; bad: number[] } {
  const records: SessionRecord[] = [];
  const bad: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const r = JSON.parse(line);
      if (r && typeof r === "object" && typeof r.type === "string") records.push(r);
      else bad.push(i + 1);
    } catch {
      bad.push(i + 1);
    }
  });
  return { records, bad };
}

/**
 * The conversation as the records say it is: each message appended, each rewrite replacing it. With `until`,
 * only the records before the checkpoint of that number count (the conversation at that checkpoint).
 */
export function replayMessages(records: SessionRecord[], until?: number): Message[] {
  let messages: Message[] = [];
  for (const r of records) {
    if (r.type === "checkpoint" && until !== undefined && r.n === until) break;
    if (r.type === "message") messages.push(r.message);
    else if (r.type === "rewrite") messages = [...r.messages];
  }
  return messages;
}
