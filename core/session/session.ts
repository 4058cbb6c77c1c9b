// A session: its JSONL records written as the conversation goes (messages, tool arrays, requests, audit, usage,
// checkpoints), read back for a resume, a fork or a subagent's transcript. Over 300 lines because the record
// format has one writer and one reader, kept side by side so that they cannot drift.
import { dirname, join } from "node:path";
import type { OpenAITool, TodoItem } from "../tool/mod.ts";
import { acquireLock, type HeldLock, inUse } from "./lock.ts";
import {
  type AuditRecord,
  type CheckpointRecord,
  type DeferredState,
  type HookRecord,
  parseLines,
  replayMessages,
  type RequestRecord,
  type RewriteRecord,
  type SessionMeta,
  type SessionRecord,
  type SubagentRecord,
} from "./records.ts";
import { addUsage, emptyUsage, type Message, type Usage } from "../provider/mod.ts";

/** What `Session.load` returns. */
export interface LoadedSession {
  /** The session, its messages loaded. */
  session: Session;
  /** The tools array it sent last. */
  tools?: readonly OpenAITool[];
  /** One record per model request, in order. */
  requests: RequestRecord[];
  /** Tool changes announced to the model but not yet folded into the array. */
  deferred?: DeferredState;
  /** Problems found while reading (corrupt lines). */
  warnings: string[];
}

const withoutType = <T extends { type: string }>({ type: _type, ...rest }: T): Omit<T, "type"> => rest;

/** A session as read without taking it: for listings and forks (another process may have it open). */
export interface SessionView {
  /** Its metadata record. */
  meta: SessionMeta;
  /** Its checkpoints, in order. */
  checkpoints: CheckpointRecord[];
  /** Its conversation now. */
  messages: Message[];
  /** The subagents it ran, oldest first (their transcripts are `<session>/agents/<n>.jsonl`). */
  subagents: SubagentRecord[];
  /** Whether a live navi process other than this one has it open. */
  inUse: boolean;
}

/** Read session `id` without locking it. Throws a SessionError when it is missing or not a session. */
export function readSession(home: string, id: string): SessionView {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new SessionError(`invalid session id ${JSON.stringify(id)}`);
  const file = join(home, "sessions", `${id}.jsonl`);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    throw new SessionError(`no session with id ${id} (looked for ${file})`);
  }
  const { records } = parseLines(text);
  const meta = records.find((r) => r.type === "meta") as SessionMeta | undefined;
  if (!meta) throw new SessionError(`${file}: no metadata record; the file is not a navi session`);
  const checkpoints = records.filter((r) => r.type === "checkpoint").map((r) =>
    withoutType(r as CheckpointRecord & { type: string })
  ) as CheckpointRecord[];
  const subagents = records.filter((r) => r.type === "subagent").map((r) =>
    withoutType(r as SubagentRecord & { type: string })
  ) as SubagentRecord[];
  return { meta, checkpoints, messages: replayMessages(records), subagents, inUse: inUse(file) };
}

/** Whether session `id` is open in a live navi process other than this one (its lock names that process). */
export function sessionInUse(home: string, id: string): boolean {
  return inUse(join(home, "sessions", `${id}.jsonl`));
}

/** The items of a `todos` record that have the right shape (a hand-edited file may hold anything). */
function wellFormedTodos(items: unknown): TodoItem[] {
  if (!Array.isArray(items)) return [];
  return items.filter((i): i is TodoItem =>
    !!i && typeof i === "object" && typeof i.content === "string" &&
    ["pending", "in_progress", "completed"].includes(i.status)
  ).map((i) => ({ content: i.content, status: i.status }));
}

/** A missing, unreadable or busy session. */
export class SessionError extends Error {}

/** How a session writes its file. */
export interface SessionOptions {
  /** Applied to every serialized record before it is written (removes known secrets). */
  redact?: (text: string) => string;
  /** The clock (ms since the epoch) for the session's id and timestamps (default `Date.now`). */
  now?: () => number;
}

function lockSession(file: string): HeldLock {
  const lock = acquireLock(`${file}.lock`);
  if ("release" in lock) return lock;
  throw new SessionError(
    `session ${file} is in use by another navi process (pid ${lock.heldBy}); ` +
      `close that one first, or remove ${file}.lock if it is gone`,
  );
}

/** Make sure the file ends with a newline, so that a line torn by a crash is not glued to the next record. */
function repairTornEnd(file: string, text: string): boolean {
  if (!text || text.endsWith("\n")) return false;
  Deno.writeTextFileSync(file, "\n", { append: true });
  return true;
}

function newId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${crypto.randomUUID().slice(0, 6)}`;
}

/** An append-only JSONL session file; every record is written completely before the call returns. */
export class Session {
  /** The session's metadata record. */
  readonly meta: SessionMeta;
  /** The path of the session's JSONL file. */
  readonly file: string;
  /** The conversation so far; change it through `addMessage`, which also writes the file. */
  messages: Message[] = [];
  #redact: (text: string) => string;
  #now: () => number;
  #lock?: HeldLock;
  /** Records of a new session not yet written: its file is created with the first message after the preamble. */
  #pending?: SessionRecord[];
  /** When the session's file last changed before it was loaded (ms since the epoch); undefined for a new one. */
  readonly lastActive?: number;
  /** Tokens used by this session's model requests, by model (read back on resume). */
  readonly usage: Record<string, Usage> = {};
  /** The checkpoints taken so far (one before each user turn and each rewind), in order. */
  readonly checkpoints: CheckpointRecord[] = [];
  #todos: TodoItem[] = [];
  /** The subagents this session ran, oldest first (read back on resume). */
  readonly subagents: SubagentRecord[] = [];

  private constructor(
    file: string,
    meta: SessionMeta,
    opts: SessionOptions & { lock?: HeldLock; lastActive?: number },
  ) {
    this.file = file;
    this.meta = meta;
    this.#redact = opts.redact ?? ((t) => t);
    this.#now = opts.now ?? Date.now;
    this.#lock = opts.lock;
    this.lastActive = opts.lastActive;
  }

  /**
   * Start a new session under `home/sessions` that opens with `preamble` (the system prompt, the project
   * instructions). Its file is written, and locked for this process until `close`, when the first message
   * after the preamble is added: a start that sends nothing leaves no session behind.
   */
  static create(
    home: string,
    meta: Omit<SessionMeta, "id" | "created">,
    opts: SessionOptions & { preamble?: Message[] } = {},
  ): Session {
    const created = new Date((opts.now ?? Date.now)());
    const full: SessionMeta = { id: newId(created), created: created.toISOString(), ...meta };
    const s = new Session(join(home, "sessions", `${full.id}.jsonl`), full, opts);
    s.messages = [...(opts.preamble ?? [])];
    s.#pending = [
      { type: "meta", ...full },
      ...s.messages.map((message) => ({ type: "message" as const, message })),
    ];
    return s;
  }

  /**
   * Start the transcript of subagent `n` of `parent` (`<parent's folder>/agents/<n>.jsonl`), opening with
   * `preamble`; written (and locked) with its first message after the preamble, like any session.
   */
  static subagent(
    parent: Session,
    opts: SessionOptions & { n: number; agent: string; preamble: Message[]; model?: string },
  ): Session {
    const created = new Date((opts.now ?? Date.now)());
    const full: SessionMeta = {
      id: `${parent.meta.id}-agent-${opts.n}`,
      created: created.toISOString(),
      cwd: parent.meta.cwd,
      ...(parent.meta.provider ? { provider: parent.meta.provider } : {}),
      ...(opts.model ?? parent.meta.model ? { model: opts.model ?? parent.meta.model } : {}),
      subagent_of: { id: parent.meta.id, n: opts.n, agent: opts.agent },
    };
    const s = new Session(join(parent.agentDir, `${opts.n}.jsonl`), full, opts);
    s.messages = [...opts.preamble];
    s.#pending = [
      { type: "meta", ...full },
      ...s.messages.map((message) => ({ type: "message" as const, message })),
    ];
    return s;
  }

  /** Whether the session's file exists (a new session's is written with its first message). */
  get written(): boolean {
    return this.#pending === undefined;
  }

  #materialize(): void {
    const pending = this.#pending;
    if (!pending) return;
    Deno.mkdirSync(dirname(this.file), { recursive: true });
    this.#lock = lockSession(this.file);
    this.#pending = undefined;
    const lines = pending.map((r) => this.#redact(JSON.stringify(r)) + "\n").join("");
    Deno.writeTextFileSync(this.file, lines, { append: true, mode: 0o600 });
  }

  /**
   * Load a session: its conversation, the tools array it sent last, its request records, its deferred tool
   * changes and warnings (a corrupt line is skipped and reported; a torn last line is ended so that new records start
   * on a line of their own). The session stays locked for this process until `close`: a session that
   * another live navi process has open is refused with a SessionError.
   */
  static load(home: string, id: string, opts: SessionOptions = {}): LoadedSession {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new SessionError(`invalid session id ${JSON.stringify(id)}`);
    const file = join(home, "sessions", `${id}.jsonl`);
    try {
      Deno.statSync(file);
    } catch {
      throw new SessionError(`no session with id ${id} (looked for ${file})`);
    }
    const lastActive = Deno.statSync(file).mtime?.getTime();
    const lock = lockSession(file);
    try {
      return Session.#read(file, { ...opts, lock, lastActive });
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * Fork session `id`: a new session (new id, locked for this process) with the records of the original up to
   * the end of turn `turn` (before checkpoint `turn + 1`; all of them without `turn`). The original is only
   * read, never locked or changed, so a live session can be forked. Token usage is not carried over.
   */
  static fork(home: string, id: string, opts: SessionOptions & { turn?: number } = {}): LoadedSession {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new SessionError(`invalid session id ${JSON.stringify(id)}`);
    const from = join(home, "sessions", `${id}.jsonl`);
    let text: string;
    try {
      text = Deno.readTextFileSync(from);
    } catch {
      throw new SessionError(`no session with id ${id} (looked for ${from})`);
    }
    const { records } = parseLines(text);
    const meta = records.find((r) => r.type === "meta") as SessionMeta | undefined;
    if (!meta) throw new SessionError(`${from}: no metadata record; the file is not a navi session`);
    const marks = records.filter((r) => r.type === "checkpoint").map((r) => (r as CheckpointRecord).n);
    const last = marks.at(-1) ?? 0;
    if (opts.turn !== undefined && (!Number.isInteger(opts.turn) || opts.turn < 0 || opts.turn > last)) {
      throw new SessionError(`session ${id} has turns 1 to ${last}; cannot fork at turn ${opts.turn}`);
    }
    const end = opts.turn === undefined
      ? records.length
      : records.findIndex((r) => r.type === "checkpoint" && r.n === opts.turn! + 1);
    const kept = records.slice(0, end < 0 ? records.length : end)
      .filter((r) => r.type !== "meta" && r.type !== "usage");
    const dir = join(home, "sessions");
    const forked_from = { id: meta.id, ...(opts.turn === undefined ? {} : { turn: opts.turn }) };
    const created = new Date((opts.now ?? Date.now)());
    const full: SessionMeta = {
      id: newId(created),
      created: created.toISOString(),
      cwd: meta.cwd,
      provider: meta.provider,
      model: meta.model,
      forked_from,
    };
    const file = join(dir, `${full.id}.jsonl`);
    const lock = lockSession(file);
    try {
      const lines = [{ type: "meta", ...full }, ...kept].map((r) => JSON.stringify(r) + "\n").join("");
      Deno.writeTextFileSync(file, (opts.redact ?? ((t) => t))(lines), { createNew: true, mode: 0o600 });
      return Session.#read(file, { ...opts, lock });
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  static #read(file: string, opts: SessionOptions & { lock: HeldLock; lastActive?: number }): LoadedSession {
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch (err) {
      throw new SessionError(`${file}: cannot be read (${(err as Error).message})`);
    }
    const { records, bad } = parseLines(text);
    const meta = records.find((r) => r.type === "meta") as SessionMeta | undefined;
    if (!meta) throw new SessionError(`${file}: no metadata record; the file is not a navi session`);
    const torn = repairTornEnd(file, text);
    const session = new Session(file, {
      id: meta.id,
      created: meta.created,
      cwd: meta.cwd,
      provider: meta.provider,
      model: meta.model,
      ...(meta.forked_from ? { forked_from: meta.forked_from } : {}),
      ...(meta.subagent_of ? { subagent_of: meta.subagent_of } : {}),
    }, opts);
    let tools: readonly OpenAITool[] | undefined;
    let deferred: DeferredState | undefined;
    const requests: RequestRecord[] = [];
    for (const r of records) {
      if (r.type === "message") session.messages.push(r.message);
      else if (r.type === "rewrite") session.messages = [...r.messages];
      else if (r.type === "tools") tools = r.tools;
      else if (r.type === "request") requests.push(withoutType(r));
      else if (r.type === "deferred") deferred = withoutType(r);
      else if (r.type === "usage") session.#addUsage(r.model, r);
      else if (r.type === "checkpoint") session.checkpoints.push(withoutType(r));
      else if (r.type === "todos") session.#todos = wellFormedTodos(r.items);
      else if (r.type === "subagent" && typeof r.n === "number") session.subagents.push(withoutType(r));
    }
    const tornNote = torn
      ? " (the last line was cut off mid-write; new records start on a line of their own)"
      : "";
    const lines = bad.length === 1 ? `line ${bad[0]} is` : `lines ${bad.join(", ")} are`;
    const warnings = bad.length ? [`${file}: ${lines} corrupt and skipped${tornNote}`] : [];
    return { session, tools, requests, deferred, warnings };
  }

  /**
   * A session cut off between a tool call and its result (a crash) would be rejected by the provider: give
   * the unanswered calls of the last assistant message a result. Returns how many were added.
   */
  completeToolCalls(): number {
    let last = this.messages.length - 1;
    while (last >= 0 && this.messages[last].role === "tool") last--;
    const calls = (this.messages[last]?.role === "assistant" ? this.messages[last].tool_calls : undefined) as
      | { id: string }[]
      | undefined;
    const answered = new Set(this.messages.slice(last + 1).map((m) => m.tool_call_id));
    const missing = (calls ?? []).filter((c) => !answered.has(c.id));
    const content = JSON.stringify({ ok: false, error: "navi stopped before this tool call finished" });
    for (const call of missing) this.addMessage({ role: "tool", tool_call_id: call.id, content });
    return missing.length;
  }

  /** Append a message to the conversation and the file (a new session's file is created now). */
  addMessage(message: Message): void {
    this.messages.push(message);
    this.#materialize();
    this.#write({ type: "message", message });
  }

  /** Replace the conversation with `record.messages` from now on (compaction); earlier records stay. */
  rewrite(record: RewriteRecord): void {
    this.messages = [...record.messages];
    this.#write({ type: "rewrite", ...record });
  }

  /**
   * Take the next checkpoint (numbered from 1): the point before a user turn or a rewind. Returns its record.
   */
  checkpoint(opts: Omit<CheckpointRecord, "n" | "at">): CheckpointRecord {
    const record: CheckpointRecord = {
      n: (this.checkpoints.at(-1)?.n ?? 0) + 1,
      at: new Date(this.#now()).toISOString(),
      ...opts,
      ...(opts.prompt === undefined ? {} : { prompt: opts.prompt.slice(0, 200) }),
    };
    this.checkpoints.push(record);
    this.#write({ type: "checkpoint", ...record });
    return record;
  }

  /**
   * The conversation as it was at checkpoint `n` (its records read back from the file), or the conversation
   * now when there is no checkpoint `n` (the end of the last turn).
   */
  conversationAt(n: number): Message[] {
    const { records } = parseLines(Deno.readTextFileSync(this.file));
    return replayMessages(records, this.checkpoints.some((c) => c.n === n) ? n : undefined);
  }

  /** Record the model-facing tool list after a change (read back by `load` for a resume). */
  recordTools(tools: readonly OpenAITool[]): void {
    this.#write({ type: "tools", tools });
  }

  /** Record one model request (its time, size and the provider's token counts). */
  recordRequest(record: RequestRecord): void {
    this.#write({ type: "request", ...record });
  }

  /** Record the tool changes announced but not yet folded into the tools array (read back for a resume). */
  recordDeferred(state: DeferredState): void {
    this.#write({ type: "deferred", ...state });
  }

  /** Record the tokens one turn used with `model`. */
  recordUsage(model: string, usage: Usage): void {
    if (!usage.total_tokens && !usage.prompt_tokens && !usage.completion_tokens) return;
    this.#addUsage(model, usage);
    this.#write({ type: "usage", model, ...usage });
  }

  #addUsage(model: string, usage: Partial<Usage>): void {
    addUsage(this.usage[model] ??= emptyUsage(), usage);
  }

  /** The todo list as last written (read back on resume). */
  get todos(): readonly TodoItem[] {
    return this.#todos;
  }

  /** Replace the todo list and record it. */
  recordTodos(items: readonly TodoItem[]): void {
    this.#todos = items.map((i) => ({ content: i.content, status: i.status }));
    this.#write({ type: "todos", items: this.#todos });
  }

  /** Record one tool call for audit. */
  audit(record: AuditRecord): void {
    this.#write({ type: "audit", at: new Date(this.#now()).toISOString(), ...record });
  }

  /** Record one hook run in the session's audit. */
  auditHook(record: HookRecord): void {
    this.#write({ type: "hook", at: new Date(this.#now()).toISOString(), ...record });
  }

  /** The folder of this session's saved tool outputs (`sessions/<id>/outputs`). */
  get outputDir(): string {
    return join(this.file.replace(/\.jsonl$/, ""), "outputs");
  }

  /** The folder of this session's subagent transcripts (`sessions/<id>/agents`). */
  get agentDir(): string {
    return join(this.file.replace(/\.jsonl$/, ""), "agents");
  }

  /** Record one subagent run (what `/agents` and `/usage` show). */
  recordSubagent(record: SubagentRecord): void {
    this.subagents.push(record);
    this.#write({ type: "subagent", ...record });
  }

  /** The folder of this session's background shell logs (`sessions/<id>/shells`). */
  get shellDir(): string {
    return join(this.file.replace(/\.jsonl$/, ""), "shells");
  }

  /** Keep the whole text of a cut tool result (secrets redacted) as `<outputDir>/<name>.txt`; returns the path. */
  saveOutput(name: string, text: string): string {
    Deno.mkdirSync(this.outputDir, { recursive: true, mode: 0o700 });
    const path = join(this.outputDir, `${name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80) || "output"}.txt`);
    Deno.writeTextFileSync(path, this.#redact(text), { mode: 0o600 });
    return path;
  }

  /** Release the session's lock; another process may resume it from now on. */
  close(): void {
    this.#lock?.release();
  }

  #write(record: SessionRecord): void {
    if (this.#pending) return void this.#pending.push(record);
    const line = this.#redact(JSON.stringify(record)) + "\n";
    Deno.writeTextFileSync(this.file, line, { append: true, mode: 0o600 });
  }
}
