import type { OpenAITool } from "../tool/mod.ts";
import { CALL_TOOL, FIND_TOOLS } from "./search.ts";

/** Names of what changed in a tool list. */
export interface ToolChanges {
  /** Tools new to the list. */
  added: string[];
  /** Tools that dropped out. */
  removed: string[];
  /** Tools whose definition changed. */
  changed: string[];
}

/** The `<system-reminder>` text that tells the model how its tool list changed, or "" when it did not. */
export function toolsReminder(changes: ToolChanges): string {
  const { added, removed, changed } = changes;
  return [
    added.length ? `Tools added: ${added.join(", ")}.` : "",
    removed.length ? `Tools removed: ${removed.join(", ")}.` : "",
    changed.length ? `Tools updated: ${changed.join(", ")}.` : "",
  ].filter(Boolean).join(" ");
}

const schemaLine = (t: OpenAITool) =>
  JSON.stringify({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
  });

/**
 * The reminder for a deferred change: the tools array stays as sent, new and redefined tools come with their
 * full JSON schemas (called through `call_tool`), removed tools by name.
 */
export function deferredReminder(
  change: { added: OpenAITool[]; changed: OpenAITool[]; removed: string[] },
): string {
  const lines = [
    `Your tools changed. The tools array of this conversation stays as it is (so the prompt cache keeps ` +
    `working); call the tools below with ${CALL_TOOL} {"name": "<tool>", "arguments": {...}}.`,
  ];
  if (change.added.length) lines.push("New tools:", ...change.added.map(schemaLine));
  if (change.changed.length) {
    lines.push("Changed tools (these definitions replace the ones in the tools array):");
    lines.push(...change.changed.map(schemaLine));
  }
  if (change.removed.length) lines.push(`Removed tools (calls to them fail): ${change.removed.join(", ")}.`);
  return lines.join("\n");
}

/** What the model is told about tools reachable only through `find_tools`; "" when there are none. */
export function searchableNote(
  tools: readonly OpenAITool[],
  opts: { origin: (name: string) => string | undefined; initial: boolean },
): string {
  if (!tools.length) return "";
  const counts = new Map<string, number>();
  for (const t of tools) {
    const origin = opts.origin(t.function.name) ?? "navi";
    counts.set(origin, (counts.get(origin) ?? 0) + 1);
  }
  const from = [...counts].map(([o, n]) => `${o} (${n})`).join(", ");
  const names = tools.length <= 20 ? `: ${tools.map((t) => t.function.name).join(", ")}` : ` from ${from}`;
  const lead = opts.initial
    ? `${tools.length} more tools are not in your tools list`
    : `${tools.length} more tools became available outside your tools list`;
  return `${lead}${names}. Find them with ${FIND_TOOLS} {"query": "<words>"} and call them with ${CALL_TOOL}.`;
}
