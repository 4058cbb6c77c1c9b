// The targets of issue 30, measured by bench/process.ts: each a ratio of two figures of the same run
// (interleaved, so that both see the same machine load) against its limit, printed with PASS/MISS.
import { join } from "node:path";

/** A command to time: argv, environment additions, working directory, stdin text. */
export interface Run {
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
  stdin?: string;
}

/** What one timed run gave: wall milliseconds, CPU milliseconds (the process and the children it waited for),
 * stdout and stderr. */
export interface Timed {
  wall: number;
  cpu: number;
  stdout: string;
  stderr: string;
}

const dec = new TextDecoder();

/** Run `r` under /usr/bin/time (its CPU includes every child navi reaped: the MCP servers it started). */
export async function timed(r: Run): Promise<Timed> {
  const file = await Deno.makeTempFile({ prefix: "navi-bench-time-" });
  try {
    const t = performance.now();
    const child = new Deno.Command("/usr/bin/time", {
      args: ["-f", "%U %S", "-o", file, ...r.argv],
      env: { ...Deno.env.toObject(), NO_COLOR: "1", ...r.env },
      cwd: r.cwd,
      stdin: r.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (r.stdin !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(r.stdin));
      await w.close();
    }
    const out = await child.output();
    const wall = performance.now() - t;
    const [user, sys] = (await Deno.readTextFile(file)).trim().split("\n").at(-1)!.split(" ").map(Number);
    if (!out.success) throw new Error(`${r.argv.join(" ")} failed: ${dec.decode(out.stderr).slice(-400)}`);
    return { wall, cpu: (user + sys) * 1000, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

/** The median of `xs`. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The milliseconds of a phase in a `NAVI_TRACE=startup` output, if it was traced. */
export function tracedPhase(stderr: string, phase: string): number | undefined {
  const m = new RegExp(`^navi: trace startup +(\\d+) ms ${phase}$`, "m").exec(stderr);
  return m ? Number(m[1]) : undefined;
}

/** A process that keeps one core busy until it is ended (`spinner.kill()`). */
export function spinOneCore(): Deno.ChildProcess {
  return new Deno.Command("sh", { args: ["-c", "while :; do :; done"], stdout: "null", stderr: "null" })
    .spawn();
}

/** One target: `measured` against `limit` (lower is better). */
export interface Target {
  name: string;
  measured: number;
  limit: number;
  /** How both figures read, e.g. `412 ms <= 290 ms + 100 ms`. */
  detail: string;
}

/** `PASS`/`MISS`, the ratio of the measured figure to its limit, the name and the figures. */
export function targetLine(t: Target): string {
  const ok = t.measured <= t.limit;
  return `${ok ? "PASS" : "MISS"}  ${(t.measured / t.limit).toFixed(2)} of the limit  ${t.name}: ${t.detail}`;
}

/**
 * A subsystem present in a workspace, for the rows "subsystem on / off" (off: a workspace without it). Adding
 * a subsystem's row is one entry here: a name and what writes its files.
 */
export interface Subsystem {
  name: string;
  on(workspace: string): Promise<void>;
}

const write = async (path: string, text: string) => {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
};

/** The subsystems of this turn that a project can bring (hooks and agents join when they land). */
export const SUBSYSTEMS: Subsystem[] = [
  {
    name: "project layer (.navi/config.json, AGENTS.md)",
    on: async (ws) => {
      await write(join(ws, ".navi/config.json"), JSON.stringify({ max_steps: 40 }));
      await write(join(ws, "AGENTS.md"), "# Notes\n\nRun the tests before you finish.\n");
    },
  },
  {
    name: "skills (one skill)",
    on: (ws) =>
      write(
        join(ws, ".agents/skills/demo/SKILL.md"),
        "---\nname: demo\ndescription: Demo skill, answers questions about the demo.\n---\n# Steps\n\nSay hi.\n",
      ),
  },
  {
    name: "commands (one command)",
    on: (ws) =>
      write(
        join(ws, ".navi/commands/review.md"),
        "---\ndescription: Review a file\n---\nReview $ARGUMENTS.\n",
      ),
  },
  {
    name: "agents (one agent file)",
    on: (ws) =>
      write(
        join(ws, ".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nReview the code you are given.\n",
      ),
  },
  {
    name: "hooks (one PreToolUse hook)",
    on: (ws) =>
      write(
        join(ws, ".claude/settings.json"),
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] },
        }),
      ),
  },
];
