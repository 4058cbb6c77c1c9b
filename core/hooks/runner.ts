// Running one command hook: `bash -c` in the workspace (inside the sandbox when confined), the input JSON on
// stdin, stdout and stderr capped at 10,000 characters each, ended (with every process below it) at its
// timeout or when navi stops. Not detached: a detached spawn forks navi's whole process (about 8 ms more).
import type { SandboxedCommand } from "../tool/mod.ts";
import type { CommandHook, HookRunOutput, HookSandbox } from "./types.ts";

/** Characters of stdout and of stderr kept from one hook run. */
export const OUTPUT_CAP = 10_000;

/** How to run hooks. */
export interface RunContext {
  /** The working directory (the workspace). */
  cwd: string;
  /** The environment (navi's secrets already removed; the project variables added). */
  env: Record<string, string>;
  /** The sandbox confined hooks run in; without it they are refused. */
  sandbox?: HookSandbox;
  /** Ends the run (Ctrl-C, SIGTERM, navi closing). */
  signal?: AbortSignal;
}

/** After the hook exits, how long its output may still arrive (a process it left behind keeps the pipe open). */
const DRAIN_MS = 250;

/** Reads a stream, keeping the first OUTPUT_CAP characters; `cancel` stops reading. */
function capped(stream: ReadableStream<Uint8Array>): { text: Promise<string>; cancel(): void } {
  let text = "";
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  const read = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (text.length < OUTPUT_CAP) text = (text + value).slice(0, OUTPUT_CAP);
      }
    } catch { /* cancelled, or the process was ended */ }
    return text;
  })();
  return { text: read, cancel: () => void reader.cancel().catch(() => {}) };
}

/** The process `pid` and its descendants (from /proc; just `pid` elsewhere). */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        children.set(ppid, [...children.get(ppid) ?? [], Number(e.name)]);
      } catch { /* gone meanwhile */ }
    }
  } catch { /* no /proc */ }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

/** End `pid` and every process below it (a confined hook's sandbox ends with its bubblewrap). */
function killTree(pid: number): void {
  for (const p of tree(pid)) {
    try {
      Deno.kill(p, "SIGKILL");
    } catch { /* gone */ }
  }
}

/** Run `hook` with `input` on stdin; never throws, never outlives its timeout. */
export async function runCommandHook(
  hook: CommandHook,
  input: string,
  ctx: RunContext,
): Promise<HookRunOutput> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let argv = ["bash", "-c", hook.command];
  let confined: SandboxedCommand | undefined;
  if (hook.confined) {
    if (!ctx.sandbox) return { code: null, stdout: "", stderr: "", ended: "not run: no sandbox", ms: ms() };
    confined = await ctx.sandbox.wrap(argv, { command: hook.command, cwd: ctx.cwd, network: hook.network });
    if (!confined.ok || !confined.argv) {
      return {
        code: null,
        stdout: "",
        stderr: "",
        ended: `not run: ${confined.error ?? "sandbox refused"}`,
        ms: ms(),
      };
    }
    argv = confined.argv;
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: ctx.cwd,
      env: ctx.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    return {
      code: null,
      stdout: "",
      stderr: "",
      ended: `could not start: ${(err as Error).message}`,
      ms: ms(),
    };
  }
  let ended: string | undefined;
  const end = (why: string) => {
    ended ??= why;
    killTree(child.pid);
  };
  const timer = setTimeout(() => end("timeout"), hook.timeoutMs);
  const onAbort = () => end("aborted");
  if (ctx.signal?.aborted) onAbort();
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  const writer = child.stdin.getWriter();
  writer.write(new TextEncoder().encode(input)).then(() => writer.close()).catch(() => {});
  const out = capped(child.stdout);
  const err = capped(child.stderr);
  try {
    const status = await child.status;
    let drained: ReturnType<typeof setTimeout> | undefined;
    const drain = new Promise<void>((resolve) => drained = setTimeout(resolve, DRAIN_MS));
    await Promise.race([Promise.all([out.text, err.text]), drain]);
    clearTimeout(drained);
    out.cancel();
    err.cancel();
    const [stdout, stderr] = await Promise.all([out.text, err.text]);
    return { code: ended ? null : status.code, stdout, stderr, ...(ended ? { ended } : {}), ms: ms() };
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onAbort);
    await confined?.done?.().catch(() => "");
  }
}
