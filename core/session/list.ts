import { join } from "node:path";
import { type Message } from "../provider/mod.ts";
import { parseLines, type SessionMeta } from "./records.ts";
import { SessionError } from "./session.ts";

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
  /** When the session was last used: its file's time (ISO 8601). */
  updated: string;
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

/** When a session file last changed (ms since the epoch), or its creation time when that is unknown. */
function lastActive(file: string, created: string): number {
  try {
    return Deno.statSync(file).mtime?.getTime() ?? Date.parse(created);
  } catch {
    return Date.parse(created);
  }
}

/**
 * The session of `cwd` used last (by its file's time), among those `accept` takes (given the messages;
 * default: all). Only the metadata lines are read, then the candidates' messages newest first until one is
 * accepted.
 */
export function newestSessionIn(
  home: string,
  cwd: string,
  opts: { accept?: (messages: Message[]) => boolean } = {},
): string | undefined {
  const dir = join(home, "sessions");
  const found: { meta: SessionMeta; file: string; at: number }[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile || !e.name.endsWith(".jsonl")) continue;
      const file = join(dir, e.name);
      const meta = readMeta(file);
      if (meta?.cwd === cwd) found.push({ meta, file, at: lastActive(file, meta.created) });
    }
  } catch {
    return undefined;
  }
  found.sort((a, b) => b.at - a.at || (a.meta.created < b.meta.created ? 1 : -1));
  for (const { meta, file } of found) {
    if (!opts.accept) return meta.id;
    try {
      if (opts.accept(messagesOf(parseLines(Deno.readTextFileSync(file)).records))) return meta.id;
    } catch { /* unreadable: not a candidate */ }
  }
  return undefined;
}

/** The conversation a session file's records hold (rewrites applied). */
function messagesOf(records: ReturnType<typeof parseLines>["records"]): Message[] {
  let messages: Message[] = [];
  for (const r of records) {
    if (r.type === "message") messages.push(r.message);
    else if (r.type === "rewrite") messages = [...r.messages];
  }
  return messages;
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
    const first = messages.find((m) =>
      m.role === "user" && typeof m.content === "string" &&
      !/^<(project-instructions|system-reminder)>/.test(m.content)
    );
    out.push({
      id: meta.id,
      created: meta.created,
      updated: new Date(lastActive(join(dir, e.name), meta.created)).toISOString(),
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

/**
 * The session id meant by `idOrPrefix`: an exact id, or the one id that starts with it. Throws a SessionError
 * naming the problem (no match, or the ids a prefix matches).
 */
export function resolveSessionId(home: string, idOrPrefix: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(idOrPrefix)) {
    throw new SessionError(`invalid session id ${JSON.stringify(idOrPrefix)}`);
  }
  const dir = join(home, "sessions");
  let names: string[] = [];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".jsonl"))
      .map((e) => e.name.slice(0, -".jsonl".length));
  } catch { /* no sessions yet */ }
  if (names.includes(idOrPrefix)) return idOrPrefix;
  const hits = names.filter((n) => n.startsWith(idOrPrefix)).sort();
  if (hits.length === 1) return hits[0];
  if (!hits.length) throw new SessionError(`no session with id ${idOrPrefix} (looked in ${dir})`);
  const shown = hits.slice(0, 5).join(", ") + (hits.length > 5 ? `, … (${hits.length} in all)` : "");
  throw new SessionError(`session id prefix ${idOrPrefix} is ambiguous: ${shown}`);
}
