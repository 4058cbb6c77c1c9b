// Shared test helpers: assertions on node:assert, bounded waits, temporary homes, config files, navi processes.
import assertNode from "node:assert";
import { join } from "node:path";
import { type Config, NaviApp, type ToolContext } from "../core/mod.ts";
import { builtinTools } from "../tools/mod.ts";

/** Fails with `msg` unless `cond` holds. */
export function assert(cond: unknown, msg = "assertion failed"): asserts cond {
  assertNode.ok(cond, msg);
}

/** Deep, strict equality (`node:assert` deepStrictEqual): `{a: undefined}` is not `{}`, Maps compare entries. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  assertNode.deepStrictEqual(actual, expected, msg);
}

/** Fails unless `text` matches `re`. */
export function assertMatch(text: string, re: RegExp, msg?: string): void {
  assertNode.match(text, re, msg);
}

/** Fails unless `fn` throws an error whose message matches `re`. */
export function assertThrows(fn: () => unknown, re: RegExp): void {
  assertNode.throws(fn, (err: unknown) => err instanceof Error && re.test(err.message));
}

/** Fails unless `fn` rejects with an error whose message matches `re`. */
export async function assertRejects(fn: () => Promise<unknown>, re: RegExp): Promise<void> {
  await assertNode.rejects(fn, (err: unknown) => err instanceof Error && re.test(err.message));
}

/** Wait until `cond` holds, checking every 20 ms; fails after `ms` (default 5 s) instead of hanging. */
export async function until(
  cond: () => boolean | Promise<boolean>,
  ms = 5000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A fresh temporary directory, removed by the returned dispose. */
export async function tempDir(prefix = "navi-test-"): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
}

/** Write `$home/config.json`. */
export async function writeConfig(home: string, config: Record<string, unknown>): Promise<void> {
  await Deno.writeTextFile(join(home, "config.json"), JSON.stringify(config, null, 2));
}

/** A config that points at a scripted LLM server as provider `local`, model `m`, plus `extra`. */
export function llmConfig(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { providers: { local: { base_url: url, api_key: "k" } }, model: "m", ...extra };
}

/** Like `llmConfig`, but the key comes from `$TEST_LLM_KEY` (tests then look for the key's value everywhere). */
export function keyedLlmConfig(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { providers: { local: { base_url: url, api_key: "$TEST_LLM_KEY" } }, model: "m", ...extra };
}

/** A NaviApp with the built-in tools over temporary home and workspace directories, disposed with them. */
export async function testApp(
  config: Config,
): Promise<{ app: NaviApp; home: string; ws: string } & AsyncDisposable> {
  const home = await tempDir();
  const ws = await tempDir();
  const app = new NaviApp({
    home: home.path,
    workspace: ws.path,
    config,
    builtins: builtinTools(),
    env: Deno.env,
  });
  return {
    app,
    home: home.path,
    ws: ws.path,
    async [Symbol.asyncDispose]() {
      await app.close();
      await home[Symbol.asyncDispose]();
      await ws[Symbol.asyncDispose]();
    },
  };
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

/** The repository root and its entry point. */
export const ROOT = new URL("..", import.meta.url).pathname;
export const MAIN = join(ROOT, "main.ts");

/** What a navi process did. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `deno run -A main.ts ...args` as a user would, with its own NAVI_HOME; bounded by `timeoutMs` (60 s). */
export async function runNavi(
  args: string[],
  opts: { home: string; cwd?: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number },
): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-worker-options", MAIN, ...args],
    cwd: opts.cwd ?? opts.home,
    env: { NAVI_HOME: opts.home, NO_COLOR: "1", ...opts.env },
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
  try {
    if (opts.stdin !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(opts.stdin));
      await w.close();
    }
    const out = await child.output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/** The text of every file below `dir` (session files, saved outputs, checkpoint stores), joined; "" when missing. */
export function textUnder(dir: string): string {
  let out = "";
  let entries: Deno.DirEntry[] = [];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return "";
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) out += textUnder(path);
    else if (e.isFile) out += new TextDecoder("latin1").decode(Deno.readFileSync(path));
  }
  return out;
}

/** The session files (`sessions/*.jsonl`) under `home`. */
export function sessionFiles(home: string): string[] {
  return [...Deno.readDirSync(join(home, "sessions"))].filter((e) => e.isFile && e.name.endsWith(".jsonl"))
    .map((e) => join(home, "sessions", e.name));
}
