import type { NaviPluginApi } from "../navi.d.ts";

interface Counts {
  lines: number;
  words: number;
  characters: number;
}

function count(text: string): Counts {
  return {
    lines: text === "" ? 0 : text.split("\n").length,
    words: text.split(/\s+/).filter(Boolean).length,
    characters: [...text].length,
  };
}

export default function register(navi: NaviPluginApi): void {
  navi.registerTool({
    name: "word_count",
    description: "- Counts the lines, words and characters of a text.",
    parameters: navi.z.object({ text: navi.z.string().describe("The text to count.") }),
    approval: "read_only",
    concurrencySafe: true,
    handler: ({ text }) => ({ ok: true, ...count(text) }),
  });
}
