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
