import type { HookListing, SkippedHook } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { type Style, table } from "../style.ts";

/** The `/hooks` table: each loaded hook with its source and last result, then the hooks navi does not run. */
export function hooksTable(
  hooks: readonly HookListing[],
  opts: { skipped: readonly SkippedHook[]; style: Style; display(path: string): string },
): string {
  const { style, display } = opts;
  if (!hooks.length && !opts.skipped.length) {
    return 'no hooks configured (see "hooks" in config.json, or .claude/settings.json with compat.claude)';
  }
  const last = (h: HookListing) => {
    if (!h.last) return style.dim("not run yet");
    const how = h.last.exit === null ? h.last.ended ?? "ended" : `exit ${h.last.exit}`;
    return `${h.last.result} (${how}, ${h.last.ms} ms)`;
  };
  const command = (c: string) => c.length > 50 ? `${c.slice(0, 49)}…` : c;
  const rows = hooks.map((h) => [
    h.event,
    h.matcher || "*",
    command(h.command),
    `${display(h.source)}${h.confined && h.level !== "plugin" ? " (sandboxed)" : ""}`,
    last(h),
  ]);
  const out = rows.length ? [table([["event", "matcher", "command", "source", "last result"], ...rows])] : [];
  for (const s of opts.skipped) {
    out.push(style.yellow(`not run: ${s.event} in ${display(s.file)}:${s.line}: ${s.why}`));
  }
  return out.join("\n");
}

/** REPL row: `/hooks`: the loaded hooks, where each comes from and its last result. */
export function hooksSlashCommand(): SlashCommand {
  return {
    name: "/hooks",
    help: "list the loaded hooks (event, matcher, command, source) with each one's last result",
    run: (_args, { hooks, out, style, extensions }) => {
      if (!hooks) return void out.write("hooks are not available here\n");
      const display = (p: string) => extensions?.display(p) ?? p;
      out.write(hooksTable(hooks.list(), { skipped: hooks.skipped, style, display }) + "\n");
    },
  };
}
