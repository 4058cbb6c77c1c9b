import type { Config, Sandbox, SandboxStatus } from "../../mod.ts";
import { makeStyle } from "../style.ts";

/** What `navi sandbox` reports on. */
export interface SandboxReportFrom {
  /** The app's sandbox. */
  sandbox: Pick<Sandbox, "status" | "paths" | "warning">;
  /** The `sandbox` section of config.json. */
  settings: Config["sandbox"];
  /** The workspace. */
  workspace: string;
}

/**
 * `navi sandbox [--json]`: whether bash runs confined ("enforced (bubblewrap 0.8.0)" or why not), what a
 * command may write and reach, and a fresh self-test. Exit status 1 when bash would be refused.
 */
export async function sandboxCommand(
  from: SandboxReportFrom,
  opts: { json?: boolean },
): Promise<{ text: string; code: number }> {
  const status = await from.sandbox.status({ fresh: true });
  const code = status.state === "unavailable" ? 1 : 0;
  if (opts.json) return { text: JSON.stringify(status, null, 2), code };
  return { text: await describe(status, from), code };
}

async function describe(status: SandboxStatus, from: SandboxReportFrom): Promise<string> {
  const style = makeStyle(Deno.stdout.isTerminal());
  const color = status.state === "enforced" ? style.green : status.state === "off" ? style.yellow : style.red;
  const lines = [`sandbox: ${color(status.summary)}`];
  if (status.binary) lines.push(`binary: ${status.binary}`);
  if (status.state === "off") return lines.join("\n");
  if (status.state === "unavailable") lines.push(style.yellow((await from.sandbox.warning())!));
  const settings = from.settings ?? {};
  const paths = await from.sandbox.paths();
  const commands = settings.network_commands?.length ? `; for ${settings.network_commands.join(", ")}` : "";
  lines.push(
    `writable: ${[`${from.workspace} (workspace)`, "/tmp (private, empty)", ...paths.writable].join(", ")}`,
    "read-only in the workspace: .git/hooks, .git/config (a .git file too); .git cannot be replaced",
    `hidden: ${paths.hidden.join(", ") || "(none)"} (navi's home)`,
    `network: ${
      settings.network
        ? "allowed"
        : `off (no TCP/UDP, no Unix sockets; the commands of one session share a private loopback)${commands}`
    }`,
    `auto_allow: ${settings.auto_allow ? "on (ask mode runs bash without asking)" : "off"}`,
  );
  for (const p of paths.missing) lines.push(style.yellow(`writable path skipped (missing): ${p}`));
  if (status.checks.length) {
    lines.push(`self-test (${status.ms ?? "?"} ms):`);
    for (const c of status.checks) {
      const mark = c.ok ? style.green("ok  ") : c.optional ? style.yellow("no  ") : style.red("FAIL");
      lines.push(`  ${mark} ${c.name}: ${c.detail}`);
    }
  }
  return lines.join("\n");
}
