/**
 * navi's terminal front: the commander program. `main.ts` loads this module for everything but
 * `--version`; nothing outside `core/cli/` imports it.
 * @module
 */
import type { EarlyServers, NaviApp } from "../mod.ts";
import { escapeControls, type Redactor, type Sink, streamSink } from "../output/mod.ts";
import type { StartupTrace } from "../trace/mod.ts";
import type { EarlyStart } from "./early.ts";
import type { AppLoad } from "./program.ts";

/**
 * Run navi's CLI with `args` (without the program name), after `start` (see `startEarly`; done here when
 * absent); returns the exit status. The app it creates (and
 * with it every MCP connection) is closed here, once, whatever the command did.
 */
export async function main(args: string[], start?: EarlyStart): Promise<number> {
  let app: NaviApp | undefined;
  // Stdio MCP servers start first (main.ts does it before this module loads: see early.ts), before commander,
  // the engine, plugins and the SDKs load, so that their own start-up (often the longest part of a one-shot
  // run) overlaps navi's. The app adopts them once the config proves valid; processes nobody adopted are ended
  // below.
  const { trace, servers } = start ?? (await import("./early.ts")).startEarly(args);
  let early = servers;
  // Commander, the program and the crash guard (which reach the config schema, zod and the engine) load only
  // now: the servers above start before any of them is evaluated (graph_test.ts holds this module to it).
  const [commander, { buildProgram }, { installCrashGuard }] = await Promise.all([
    import("@commander-js/extra-typings"),
    import("./program.ts"),
    import("./crash_guard.ts"),
  ]);
  // Every byte navi writes passes these sinks: secrets of the app (once there is one) redacted, control
  // sequences other than navi's own neutralised.
  const redactor: Redactor = {
    redact: (text) => app?.secrets.redact(text) ?? text,
    heldBack: (text) => app?.secrets.heldBack(text) ?? 0,
  };
  const out = streamSink(Deno.stdout, redactor);
  const err = streamSink(Deno.stderr, redactor);
  const createApp = async (load: AppLoad = {}): Promise<NaviApp> => {
    const taken = load.mcp ? early : undefined;
    if (load.mcp) early = undefined;
    app = await bootFront({ load, early: taken, err, out, trace });
    return app;
  };
  let status = 0;
  const program = buildProgram(commander, {
    createApp,
    track: (a) => (app = a),
    exit: (code) => (status = code),
    args,
    out,
    err,
  });
  const removeGuard = installCrashGuard({
    line: (text) => err.write(text + "\n"),
    log: (text) => app?.log("errors.log", text),
  });
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (e) {
    const { ConfigError, SessionError } = await import("../mod.ts");
    err.write(`navi: ${escapeControls(e instanceof Error ? e.message : String(e))}\n`);
    status = e instanceof ConfigError || e instanceof SessionError ? 2 : 1;
  } finally {
    out.flush?.();
    err.flush?.();
    await app?.close();
    await Promise.all([...(early?.values() ?? [])].map((p) => p.stop()));
    trace.mark("exit");
    trace.print(err);
    removeGuard();
  }
  return status;
}

/** The app of a terminal command: the engine and the built-in tools loaded, start-up lines on `err`. */
async function bootFront(
  opts: { load: AppLoad; early?: EarlyServers; err: Sink; out: Sink; trace: StartupTrace },
): Promise<NaviApp> {
  const [{ bootApp, naviHome }, { builtinTools }] = await Promise.all([
    import("../mod.ts"),
    import("../../tools/mod.ts"),
  ]);
  opts.trace.mark("modules loaded");
  const terminal = opts.load.trust === "ask" && Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
  return await bootApp({
    home: naviHome(),
    workspace: Deno.cwd(),
    env: Deno.env,
    builtins: builtinTools(),
    early: opts.early,
    trace: opts.trace,
    plugins: opts.load.plugins,
    report: (line) => opts.err.write(`navi: ${line.text}\n`),
    askTrust: terminal
      ? async (q) => {
        const [{ askTrustOnTerminal, readCookedLine }, { makeStyle }] = await Promise.all([
          import("./trust_prompt.ts"),
          import("./style.ts"),
        ]);
        const style = makeStyle(!Deno.env.get("NO_COLOR"));
        return await askTrustOnTerminal(q, {
          write: (t) => opts.out.write(t),
          readLine: () => readCookedLine(),
          style,
        });
      }
      : undefined,
  });
}
