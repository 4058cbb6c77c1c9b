import type { ShellSummary } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { shorten, type Style, table } from "../style.ts";
import { printable } from "../text_width.ts";

/** Bytes as `512 B`, `3.4 kB`, `12.0 MB`. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** Seconds as `42s`, `5m 3s`, `2h 10m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The `/shells` table: id, status, age, output size, command. */
export function shellsTable(shells: ShellSummary[], opts: { style: Style; now?: number }): string {
  const { style } = opts;
  const now = opts.now ?? Date.now();
  const rows = shells.map((s) => {
    const status = s.status === "running"
      ? style.green("running")
      : `${s.status}${s.exit_code === undefined ? "" : ` (${s.exit_code})`}`;
    return [
      s.id,
      status,
      formatDuration(now - s.started),
      formatBytes(s.bytes),
      printable(shorten(s.command, 80)),
    ];
  });
  return table([["id", "status", "age", "output", "command"].map((h) => style.dim(h)), ...rows]);
}

/** How many background shells run, in words ("" when none does). */
export function runningShells(count: number): string {
  return count ? `${count} background shell${count === 1 ? "" : "s"} running` : "";
}

/** The line after a turn that says how many background shells run ("" when none does). */
export function runningShellsLine(count: number): string {
  return count ? `${runningShells(count)} (/shells)` : "";
}

/** REPL row: `/shells [kill <id>]`: the session's background shells, or stop one of them. */
export function shellsSlashCommand(): SlashCommand {
  return {
    name: "/shells",
    subcommands: ["kill"],
    help: "list the session's background shells (command, age, status, output size); kill <id> stops one",
    run: async (args, { conversation, out, style }) => {
      const { shells } = conversation();
      const [sub, id] = args.split(/\s+/).filter(Boolean);
      if (sub === "kill") {
        if (!id) return void out.write("usage: /shells kill <id>\n");
        const report = await shells.kill(id);
        if (!report) return void out.write(`no background shell ${id} in this session\n`);
        return void out.write(
          `${id} stopped (${report.status}${
            report.exit_code === undefined ? "" : `, exit ${report.exit_code}`
          })\n`,
        );
      }
      if (sub) {
        return void out.write(
          `unknown subcommand ${JSON.stringify(sub)}; use /shells or /shells kill <id>\n`,
        );
      }
      const list = shells.list();
      if (!list.length) return void out.write("no background shells in this session\n");
      out.write(shellsTable(list, { style }) + "\n");
    },
  };
}
