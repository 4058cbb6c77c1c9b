import { z } from "zod";
import {
  type CommandOutcome,
  type CommandRun,
  defineTool,
  type SandboxedCommand,
  type ToolContext,
  ToolError,
} from "../core/mod.ts";

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
const MAX_KEEP_CHARS = 200_000;

/** Run a command as a local child process in its own process group: output kept, killed at timeout or abort. */
async function runLocally(run: CommandRun): Promise<CommandOutcome> {
  const [program, ...args] = run.argv;
  const child = new Deno.Command(program, {
    args,
    cwd: run.cwd,
    env: run.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let output = "";
  let dropped = 0;
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      run.onOutput?.(chunk);
      const room = run.maxChars - output.length;
      if (room > 0) output += chunk.slice(0, room);
      dropped += Math.max(0, chunk.length - Math.max(room, 0));
    }
  };
  let stopped: "timeout" | "abort" | undefined;
  const kill = (why: "timeout" | "abort") => {
    stopped ??= why;
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => kill("timeout"), run.timeoutMs);
  const onAbort = () => kill("abort");
  run.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const [status] = await Promise.all([child.status, collect(child.stdout), collect(child.stderr)]);
    return { code: status.code, output, dropped, ...(stopped ? { stopped } : {}) };
  } finally {
    clearTimeout(timer);
    run.signal.removeEventListener("abort", onAbort);
  }
}

export default defineTool({
  name: "bash",
  description: [
    "- Runs a shell command with bash in the workspace directory and returns its exit code and combined output.",
    "- Use it for builds, tests, git and other programs; prefer read_file, grep, glob and edit_file for files.",
    "- Commands time out after timeout_ms (default 120000, at most 600000); interactive programs are not supported.",
    "- For servers, watchers and other long runs set run_in_background: true: the call returns a shell id and the first output at once; read new output with bash_output, stop it with kill_shell. Background shells end with the session; commands of one session reach each other over localhost.",
    "- Commands usually run in a sandbox: writes only in the workspace and a private /tmp, no network unless the user allowed it; if the sandbox blocks something the task needs, tell the user instead of working around it.",
  ].join("\n"),
  parameters: z.object({
    command: z.string().min(1).describe("The command line to run with `bash -c`."),
    timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).optional().describe("Timeout in milliseconds."),
    run_in_background: z.boolean().optional().describe(
      "Start the command in the background and return at once (no timeout).",
    ),
  }),
  approval: "command",
  timeoutMs: MAX_TIMEOUT_MS + 10_000,
  async handler({ command, timeout_ms = DEFAULT_TIMEOUT_MS, run_in_background }, ctx) {
    const confined: SandboxedCommand = ctx.sandbox
      ? await ctx.sandbox.wrap(["bash", "-c", command], { command, cwd: ctx.workspace })
      : { ok: true, argv: ["bash", "-c", command] };
    if (!confined.ok || !confined.argv) return { ok: false, error: confined.error ?? "The sandbox refused" };
    if (run_in_background) return await inBackground(command, { confined, ctx });
    const run: CommandRun = {
      argv: confined.argv,
      cwd: ctx.workspace,
      env: ctx.childEnv?.() ?? Deno.env.toObject(),
      timeoutMs: timeout_ms,
      signal: ctx.signal,
      maxChars: MAX_KEEP_CHARS,
      ...(ctx.callId ? { callId: ctx.callId } : {}),
      ...(ctx.onOutput ? { onOutput: ctx.onOutput } : {}),
    };
    const outcome = ctx.commandRunner ? await ctx.commandRunner.run(run) : await runLocally(run);
    let output = outcome.output;
    if (outcome.dropped) output += `\n[... ${outcome.dropped} more characters of output dropped]`;
    const note = await confined.done?.();
    if (note) output += `\n[${note}]`;
    if (confined.note) output += `\n[${confined.note}]`;
    if (outcome.stopped === "abort" || ctx.signal.aborted) throw new ToolError("Command aborted by the user");
    if (outcome.stopped === "timeout") {
      return { ok: false, error: `Command timed out after ${timeout_ms} ms and was killed`, output };
    }
    if (outcome.code !== 0) {
      const how = outcome.code === null ? "was ended by a signal" : `exited with code ${outcome.code}`;
      return { ok: false, error: `Command ${how}`, exit_code: outcome.code, output };
    }
    return { ok: true, exit_code: 0, output };
  },
});

/** Start a confined command as one of the session's background shells; returns its id and first output. */
async function inBackground(
  command: string,
  opts: { confined: SandboxedCommand; ctx: ToolContext },
): Promise<Record<string, unknown>> {
  const { confined, ctx } = opts;
  if (!ctx.shells) {
    await confined.done?.();
    return {
      ok: false,
      error: "Background shells are not available here; run the command without run_in_background",
    };
  }
  const report = await ctx.shells.start({
    argv: confined.argv!,
    command,
    cwd: ctx.workspace,
    env: ctx.childEnv?.() ?? Deno.env.toObject(),
    done: confined.done,
  });
  if (ctx.signal.aborted) {
    await ctx.shells.kill(report.id);
    throw new ToolError("Command aborted by the user");
  }
  const note = [report.note, confined.note].filter(Boolean).join("; ");
  return {
    ok: true,
    shell_id: report.id,
    status: report.status,
    ...(report.exit_code === undefined ? {} : { exit_code: report.exit_code }),
    output: report.output,
    ...(note ? { note } : {}),
  };
}
