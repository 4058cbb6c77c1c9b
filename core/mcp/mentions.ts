import type { Catalog } from "./catalog.ts";
import { base64Bytes } from "./convert.ts";
import type { ReadResourceResult } from "./sdk.ts";

/** One `@<server>:<uri>` mention in a user message. */
export interface Mention {
  /** The server name. */
  server: string;
  /** The resource URI. */
  uri: string;
}

/** A user message with its mentioned resources attached. */
export interface ExpandedMessage {
  /** The message as typed, followed by one `<resource>` block per attached resource. */
  text: string;
  /** What was attached. */
  attached: { server: string; uri: string; chars: number }[];
  /** Mentions that could not be read, one line each (`@server:uri: why`). */
  failed: string[];
}

/** The most text one attached resource contributes. */
export const MAX_RESOURCE_CHARS = 100_000;

const MENTION = /(?<=^|\s)@([A-Za-z0-9_-]+):(\S+)/g;

/** The `@<server>:<uri>` mentions of `text` that name one of `servers` (trailing punctuation is not part). */
export function findMentions(text: string, servers: ReadonlySet<string>): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const server = m[1];
    const uri = m[2].replace(/[.,;:!?)\]}'"]+$/, "");
    if (!servers.has(server) || !uri || seen.has(`${server}\n${uri}`)) continue;
    seen.add(`${server}\n${uri}`);
    out.push({ server, uri });
  }
  return out;
}

/** Read each mentioned resource and attach its contents to the message (binary contents become a note). */
export async function expandMentions(
  text: string,
  opts: {
    servers: ReadonlySet<string>;
    read(server: string, uri: string): Promise<ReadResourceResult>;
  },
): Promise<ExpandedMessage> {
  const mentions = findMentions(text, opts.servers);
  const results = await Promise.allSettled(mentions.map((m) => opts.read(m.server, m.uri)));
  const blocks: string[] = [];
  const out: ExpandedMessage = { text, attached: [], failed: [] };
  mentions.forEach((m, i) => {
    const r = results[i];
    if (r.status === "rejected") {
      const why = (r.reason instanceof Error ? r.reason.message : String(r.reason)).replace(/\s+/g, " ");
      out.failed.push(`@${m.server}:${m.uri}: ${why.slice(0, 200)}`);
      return;
    }
    const body = resourceText(r.value);
    blocks.push(`<resource server="${m.server}" uri="${m.uri}">\n${body}\n</resource>`);
    out.attached.push({ server: m.server, uri: m.uri, chars: body.length });
  });
  if (blocks.length) out.text = `${text}\n\n${blocks.join("\n\n")}`;
  return out;
}

/** The text of a resources/read answer: text contents as they are (capped), binary contents as a note. */
export function resourceText(result: ReadResourceResult): string {
  const parts = result.contents.map((c) => {
    if ("text" in c && typeof c.text === "string") {
      return c.text.length > MAX_RESOURCE_CHARS
        ? `${
          c.text.slice(0, MAX_RESOURCE_CHARS)
        }\n[cut at ${MAX_RESOURCE_CHARS} of ${c.text.length} characters]`
        : c.text;
    }
    const blob = "blob" in c && typeof c.blob === "string" ? c.blob : "";
    return `[binary ${c.mimeType ?? "content"}, ${base64Bytes(blob)} bytes, not attached]`;
  });
  return parts.join("\n");
}

/** Completion candidates: `@<server>:<uri>` for every listed resource and resource template. */
export function mentionCandidates(catalogs: ReadonlyMap<string, Catalog>): string[] {
  const out: string[] = [];
  for (const [server, c] of catalogs) {
    for (const r of c.resources) out.push(`@${server}:${r.uri}`);
    for (const t of c.templates) out.push(`@${server}:${t.uriTemplate}`);
  }
  return out;
}
