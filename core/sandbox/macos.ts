// macOS: a sandbox-exec (Seatbelt) profile with the same rules as the Linux sandbox. Written from Apple's
// profile language as other tools use it; it has not been run here (no macOS machine): see the README.
import type { ConfinePlan } from "./bwrap.ts";

const quote = (s: string) => `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

/**
 * The profile for `plan`: reads allowed except navi's home; writes only in the workspace, the writable paths
 * and the temporary directories, never in the read-only paths; other processes' information hidden; no
 * network (TCP or Unix sockets) unless allowed.
 */
export function seatbeltProfile(plan: ConfinePlan, tmpdir?: string): string {
  const writable = [plan.workspace, ...plan.writable, "/private/tmp", "/private/var/folders"];
  if (tmpdir) writable.push(tmpdir);
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    `(allow file-write* ${writable.map((p) => `(subpath ${quote(p)})`).join(" ")}`,
    '  (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
  ];
  const readOnly = [...plan.readOnly.map((p) => `(subpath ${quote(p)})`)];
  if (readOnly.length) lines.push(`(deny file-write* ${readOnly.join(" ")})`);
  for (const dir of plan.pin) lines.push(`(deny file-write-unlink (literal ${quote(dir)}))`);
  if (plan.hide.length) {
    lines.push(`(deny file-read* file-write* ${plan.hide.map((p) => `(subpath ${quote(p)})`).join(" ")})`);
  }
  lines.push("(deny process-info*)", "(allow process-info* (target same-sandbox))");
  if (!plan.network) lines.push("(deny network*)");
  return lines.join("\n") + "\n";
}

/** The argv that runs `argv` under `sandbox-exec` with the profile for `plan`. */
export function seatbeltCommand(
  sandboxExec: string,
  plan: ConfinePlan,
  opts: { argv: string[]; tmpdir?: string },
): string[] {
  return [sandboxExec, "-p", seatbeltProfile(plan, opts.tmpdir), ...opts.argv];
}
