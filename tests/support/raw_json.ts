/** The raw text of a top-level JSON value `key` inside a serialized object, byte for byte. */
export function rawField(raw: string, key: string): string {
  const start = raw.indexOf(`"${key}":`);
  if (start < 0) throw new Error(`no "${key}" in body`);
  let i = start + key.length + 3;
  const open = raw[i];
  const close = open === "[" ? "]" : open === "{" ? "}" : null;
  if (!close) throw new Error(`"${key}" is not an array or object`);
  let depth = 0;
  let inString = false;
  for (; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return raw.slice(start + key.length + 3, i + 1);
  }
  throw new Error("unterminated");
}
