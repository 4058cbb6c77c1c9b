import type { Catalog } from "./catalog.ts";
import { base64Bytes } from "./bytes.ts";
import type { ReadResourceResult } from "./sdk.ts";

/** The most text one attached resource contributes. */
export const MAX_RESOURCE_CHARS = 100_000;

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
