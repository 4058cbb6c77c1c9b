import { join } from "node:path";
import type { ToolContext } from "../core/tool.ts";

export function assert(cond: unknown, msg = "assertion failed"): asserts cond {
  if (!cond) throw new Error(msg);
}

export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${msg ? msg + ": " : ""}expected ${e}, got ${a}`);
}

export function assertMatch(text: string, re: RegExp, msg?: string): void {
  if (!re.test(text)) throw new Error(`${msg ? msg + ": " : ""}${JSON.stringify(text)} does not match ${re}`);
}

/** A fresh temporary directory, removed by the returned dispose. */
export async function tempDir(prefix = "navi-test-"): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
}

/** A tool context for `workspace`; `allow` answers out-of-workspace confirmations. */
export function toolContext(
  workspace: string,
  opts: { allow?: boolean; signal?: AbortSignal; asked?: string[] } = {},
): ToolContext {
  return {
    workspace,
    signal: opts.signal ?? new AbortController().signal,
    confirm: (req) => {
      opts.asked?.push(req.detail);
      return Promise.resolve(opts.allow ?? false);
    },
  };
}

export const ROOT = new URL("..", import.meta.url).pathname;
export const MAIN = join(ROOT, "main.ts");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `deno run -A main.ts ...args` as a user would, with its own NAVI_HOME. */
export async function runNavi(
  args: string[],
  opts: { home: string; cwd?: string; env?: Record<string, string>; stdin?: string },
): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd: opts.cwd ?? opts.home,
    env: { NAVI_HOME: opts.home, NO_COLOR: "1", ...opts.env },
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
