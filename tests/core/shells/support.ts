// Helpers of the background shell tests: a ShellManager over temporary folders, and finding processes by a
// marker in their command line (to prove that a process runs, or that none is left).
import { join } from "node:path";
import { Secrets, ShellManager } from "../../../core/mod.ts";
import { tempDir } from "../../helpers.ts";

/** The pids of live processes that `marked(marker)` started (the shell around it does not count). */
export function processesWith(marker: string): number[] {
  return processesNamed(`${marker}-run`);
}

/** The pids of live processes whose command line contains `text`. */
export function processesNamed(marker: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name) || Number(e.name) === Deno.pid) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      const state = Deno.readTextFileSync(`/proc/${e.name}/stat`).split(") ")[1]?.[0];
      if (cmdline.includes(marker) && state !== "Z") out.push(Number(e.name));
    } catch { /* gone */ }
  }
  return out;
}

/** A command that becomes a process named `<marker>-run` (bash's `exec -a`; its own line never holds that name). */
export function marked(marker: string, seconds = 300): string {
  return `m=${marker}; exec -a "$m"-run sleep ${seconds}`;
}

/** A ShellManager over a temporary home and session folder; `secret` is a value it must redact. */
export async function shellManager(opts: { graceMs?: number; secret?: string } = {}) {
  const home = await tempDir();
  const secrets = new Secrets();
  secrets.add(opts.secret);
  const dir = join(home.path, "sessions", "s1", "shells");
  const make = () =>
    new ShellManager({
      home: home.path,
      session: "s1",
      dir,
      redactor: secrets,
      graceMs: opts.graceMs ?? 500,
    });
  const shells = make();
  return {
    shells,
    home: home.path,
    dir,
    make,
    spec: (command: string) => ({
      argv: ["bash", "-c", command],
      command,
      cwd: home.path,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    }),
    async [Symbol.asyncDispose]() {
      await shells.close();
      await home[Symbol.asyncDispose]();
    },
  };
}
