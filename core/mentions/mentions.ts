import { resolve } from "node:path";
import { isInside, looksBinary } from "../workspace/mod.ts";

/** What a mention adds to the message. */
export interface Attachment {
  /** Shown to the user: `src/a.ts (120 lines)`. */
  label: string;
  /** Appended to the message for the model. */
  text: string;
}

/**
 * One kind of `@mention`. Files (`@src/a.ts`) are the built-in kind; others (MCP resources as
 * `@server:uri`) plug in with their own provider. The first provider that `accepts` a token owns it.
 */
export interface MentionProvider {
  /** Whether this provider handles the token after `@`. */
  accepts(token: string): boolean;
  /** Completions for a partial token (without the `@`). */
  complete(partial: string): string[] | Promise<string[]>;
  /** What to attach for a token; throws an Error with a one-line reason when it cannot. */
  expand(token: string): Promise<Attachment>;
}

/** Files bigger than this are not attached. */
export const MAX_ATTACH_BYTES = 256 * 1024;

/** Workspace files as `@path` mentions: Tab completes paths, a mention attaches the file's text. */
export function fileMentions(workspace: string): MentionProvider {
  return {
    accepts: (token) => !/^[A-Za-z0-9_-]+:/.test(token),
    complete(partial) {
      const dirPart = partial.includes("/") ? partial.slice(0, partial.lastIndexOf("/") + 1) : "";
      const prefix = partial.slice(dirPart.length);
      const dir = resolve(workspace, dirPart || ".");
      if (!isInside(workspace, dir)) return [];
      const out: string[] = [];
      try {
        for (const e of Deno.readDirSync(dir)) {
          if (!e.name.startsWith(prefix) || (e.name.startsWith(".") && !prefix.startsWith("."))) continue;
          out.push(dirPart + e.name + (e.isDirectory ? "/" : ""));
        }
      } catch {
        return [];
      }
      return out.sort();
    },
    async expand(token) {
      const full = resolve(workspace, token);
      const real = await Deno.realPath(full).catch(() => {
        throw new Error(`@${token}: no such file in the workspace`);
      });
      const root = await Deno.realPath(workspace);
      if (!isInside(root, real)) throw new Error(`@${token}: outside the workspace; not attached`);
      const info = await Deno.stat(real);
      if (info.isDirectory) throw new Error(`@${token}: is a directory; mention files`);
      if (info.size > MAX_ATTACH_BYTES) {
        throw new Error(
          `@${token}: ${info.size} bytes is over the ${MAX_ATTACH_BYTES}-byte limit; not attached`,
        );
      }
      const bytes = await Deno.readFile(real);
      if (looksBinary(bytes)) throw new Error(`@${token}: a binary file; not attached`);
      const text = new TextDecoder().decode(bytes);
      const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
      return {
        label: `${token} (${lines} lines)`,
        text: `<file path="${token}">\n${text}${text.endsWith("\n") ? "" : "\n"}</file>`,
      };
    },
  };
}

const MENTION = /(^|\s)@([^\s@]+)/g;

/** The `@token` that ends at `cursor`, if the cursor is on one. */
export function mentionAt(text: string, cursor: number): { start: number; token: string } | undefined {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, cursor));
  if (!m) return undefined;
  return { start: cursor - m[2].length, token: m[2] };
}

/** Completions for the mention under the cursor, from the first provider that accepts it. */
export async function completeMention(
  text: string,
  cursor: number,
  providers: readonly MentionProvider[],
): Promise<{ start: number; items: string[] } | undefined> {
  const at = mentionAt(text, cursor);
  if (!at) return undefined;
  const provider = providers.find((p) => p.accepts(at.token));
  if (!provider) return undefined;
  return { start: at.start, items: await provider.complete(at.token) };
}

/**
 * Attach every `@mention` in a message (files, MCP resources: whatever `providers` accept); the text stays as
 * typed, attachments follow it. `attached` holds one label per attachment, `problems` one line per mention that
 * could not be attached. The one mention pipeline of every front.
 */
export async function expandMentions(
  text: string,
  providers: readonly MentionProvider[],
): Promise<{ text: string; attached: string[]; problems: string[] }> {
  const tokens = [...new Set([...text.matchAll(MENTION)].map((m) => m[2].replace(/[.,;:!?)\]}'"]+$/, "")))];
  const attached: string[] = [];
  const problems: string[] = [];
  const blocks: string[] = [];
  for (const token of tokens) {
    const provider = providers.find((p) => p.accepts(token));
    if (!provider) continue;
    try {
      const a = await provider.expand(token);
      attached.push(a.label);
      blocks.push(a.text);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { text: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, attached, problems };
}
