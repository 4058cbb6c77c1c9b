import { join } from "node:path";
import type { OpenAITool } from "./registry.ts";

/** A Chat Completions message as navi stores and sends it. */
export type Message = Record<string, unknown> & { role: "system" | "user" | "assistant" | "tool" };

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
}

type SessionRecord =
  | ({ type: "meta" } & SessionMeta)
  | { type: "message"; message: Message }
  | { type: "tools"; tools: readonly OpenAITool[] }
  | ({ type: "audit"; at: string } & AuditRecord);

/** A missing or unreadable session. */
export class SessionError extends Error {}

function newId(now = new Date()): string {
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

  private constructor(file: string, meta: SessionMeta) {
    this.file = file;
    this.meta = meta;
  }

  /** Start a new session file under `home/sessions`. */
  static create(home: string, meta: Omit<SessionMeta, "id" | "created">): Session {
    const dir = join(home, "sessions");
    Deno.mkdirSync(dir, { recursive: true });
    const full: SessionMeta = { id: newId(), created: new Date().toISOString(), ...meta };
    const s = new Session(join(dir, `${full.id}.jsonl`), full);
    s.#write({ type: "meta", ...full });
    return s;
  }

  /**
   * Load a session: its conversation, the tool list it sent last (for the tool pool to evolve) and
   * warnings (a corrupt line is skipped and reported).
   */
  static load(
    home: string,
    id: string,
  ): { session: Session; tools?: readonly OpenAITool[]; warnings: string[] } {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new SessionError(`invalid session id ${JSON.stringify(id)}`);
    const file = join(home, "sessions", `${id}.jsonl`);
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      throw new SessionError(`no session with id ${id} (looked for ${file})`);
    }
    const { records, bad } = parseLines(text);
    const meta = records.find((r) => r.type === "meta") as SessionMeta | undefined;
    if (!meta) throw new SessionError(`${file}: no metadata record; the file is not a navi session`);
    const session = new Session(file, {
      id: meta.id,
      created: meta.created,
      cwd: meta.cwd,
      provider: meta.provider,
      model: meta.model,
    });
    let tools: readonly OpenAITool[] | undefined;
    for (const r of records) {
      if (r.type === "message") session.messages.push(r.message);
      else if (r.type === "tools") tools = r.tools;
    }
    const warnings = bad.length
      ? [
        `${file}: ${
          bad.length === 1 ? `line ${bad[0]} is` : `lines ${bad.join(", ")} are`
        } corrupt and skipped`,
      ]
      : [];
    return { session, tools, warnings };
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

  /** Append a message to the conversation and the file. */
  addMessage(message: Message): void {
    this.messages.push(message);
    this.#write({ type: "message", message });
  }

  /** Record the model-facing tool list after a change (read back by `load` for a resume). */
  recordTools(tools: readonly OpenAITool[]): void {
    this.#write({ type: "tools", tools });
  }

  /** Record one tool call for audit. */
  audit(record: AuditRecord): void {
    this.#write({ type: "audit", at: new Date().toISOString(), ...record });
  }

  #write(record: SessionRecord): void {
    Deno.writeTextFileSync(this.file, JSON.stringify(record) + "\n", { append: true, mode: 0o600 });
  }
}

function parseLines(text: string): { records: SessionRecord[]; bad: number[] } {
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

/** A row of `navi sessions`. */
export interface SessionSummary {
  /** The session id (for `--resume`). */
  id: string;
  /** When the session was created (ISO 8601). */
  created: string;
  /** The workspace it was started in. */
  cwd: string;
  /** How many messages it holds, the system prompt not counted. */
  messages: number;
  /** The first user prompt, cut to 200 characters. */
  first_prompt: string;
}

/** The metadata record of a session file: its first line, read without reading the rest. */
function readMeta(file: string): SessionMeta | undefined {
  let f: Deno.FsFile | undefined;
  try {
    f = Deno.openSync(file);
    const buf = new Uint8Array(4096);
    const n = f.readSync(buf) ?? 0;
    const line = new TextDecoder().decode(buf.subarray(0, n)).split("\n")[0];
    const record = JSON.parse(line);
    return record?.type === "meta" ? record : undefined;
  } catch {
    return undefined;
  } finally {
    f?.close();
  }
}

/** The newest session started in `cwd`, from the metadata lines only. */
export function newestSessionIn(home: string, cwd: string): string | undefined {
  const dir = join(home, "sessions");
  let best: SessionMeta | undefined;
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile || !e.name.endsWith(".jsonl")) continue;
      const meta = readMeta(join(dir, e.name));
      if (meta?.cwd === cwd && (!best || meta.created > best.created)) best = meta;
    }
  } catch {
    return undefined;
  }
  return best?.id;
}

/** Every session under `home`, newest first. Unreadable files are skipped. */
export function listSessions(home: string): SessionSummary[] {
  const dir = join(home, "sessions");
  const out: SessionSummary[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!e.isFile || !e.name.endsWith(".jsonl")) continue;
    const { records } = parseLines(Deno.readTextFileSync(join(dir, e.name)));
    const meta = records.find((r) => r.type === "meta") as SessionMeta | undefined;
    if (!meta) continue;
    const messages = records.filter((r) => r.type === "message").map((r) =>
      (r as { message: Message }).message
    );
    const first = messages.find((m) => m.role === "user" && typeof m.content === "string");
    out.push({
      id: meta.id,
      created: meta.created,
      cwd: meta.cwd,
      messages: messages.filter((m) => m.role !== "system").length,
      first_prompt: (first?.content as string | undefined)?.slice(0, 200) ?? "",
    });
  }
  return out.sort((
    a,
    b,
  ) => (a.created < b.created ? 1 : a.created > b.created ? -1 : b.id.localeCompare(a.id)));
}
