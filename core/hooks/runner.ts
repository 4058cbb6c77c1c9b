// Running one command hook: `bash -c` in the workspace (inside the sandbox when confined), the input JSON on
// stdin, stdout and stderr capped at 10,000 characters each, ended (its whole process group) at its timeout
// or when navi stops.
import type { SandboxedCommand } from "../tool/mod.ts";
import type { CommandHook, HookRunOutput } from "./types.ts";

/** Characters of stdout and of stderr kept from one hook run. */
export const OUTPUT_CAP = 10_000;

/** What wraps a confined hook's argv (the session's sandbox). */
export interface HookSandbox {
  /** See the sandbox's `wrap`; `network` lets this one command use the network. */
  wrap(argv: string[], opts: { command: string; cwd: string; network?: boolean }): Promise<SandboxedCommand>;
}

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

async function capped(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (text.length < OUTPUT_CAP) text = (text + value).slice(0, OUTPUT_CAP);
    }
  } catch { /* the process was ended */ }
  return text;
}

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
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
      detached: true,
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
    killGroup(child.pid);
  };
  const timer = setTimeout(() => end("timeout"), hook.timeoutMs);
  const onAbort = () => end("aborted");
  if (ctx.signal?.aborted) onAbort();
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  const writer = child.stdin.getWriter();
  writer.write(new TextEncoder().encode(input)).then(() => writer.close()).catch(() => {});
  try {
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      capped(child.stdout),
      capped(child.stderr),
    ]);
    return { code: ended ? null : status.code, stdout, stderr, ...(ended ? { ended } : {}), ms: ms() };
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onAbort);
    killGroup(child.pid);
    await confined?.done?.().catch(() => "");
  }
}
