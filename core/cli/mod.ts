/**
 * navi's terminal front: the commander program. `main.ts` loads this module for everything but
 * `--version`; nothing outside `core/cli/` imports it.
 * @module
 */
import type { NaviApp } from "../mod.ts";
import type { StdioProcess } from "../mcp/stdio_process.ts";
import { installCrashGuard } from "./crash_guard.ts";
import { type AppLoad, buildProgram } from "./program.ts";
import { terminalSafe } from "../output/neutralise.ts";

/**
 * Run navi's CLI with `args` (without the program name); returns the exit status. The app it creates (and
 * with it every MCP connection) is closed here, once, whatever the command did.
 */
export async function main(args: string[]): Promise<number> {
  let app: NaviApp | undefined;
  // Stdio MCP servers start first, before commander, the engine, plugins and the SDKs load, so that their own
  // start-up (often the longest part of a one-shot run) overlaps navi's. The app adopts them once the config
  // proves valid; processes nobody adopted are ended below.
  let early = connectsMcp(args) ? await startStdioServers() : undefined;
  const commander = await import("@commander-js/extra-typings");
  const createApp = async (load: AppLoad = {}): Promise<NaviApp> => {
    const prespawned = load.mcp ? early : undefined;
    if (load.mcp) early = undefined;
    try {
      const [{ loadConfig, naviHome, NaviApp }, { builtinTools }] = await Promise.all([
        import("../mod.ts"),
        import("../../tools/mod.ts"),
      ]);
      const home = naviHome();
      const config = await loadConfig(home);
      if (Object.keys(config.mcp_servers ?? {}).length) import("../mcp/mod.ts").catch(() => {});
      app = new NaviApp({ home, workspace: Deno.cwd(), config, builtins: builtinTools(), prespawned });
    } catch (err) {
      await Promise.all([...(prespawned?.values() ?? [])].map((p) => p.stop()));
      throw err;
    }
    if (load.plugins === "skip") return app;
    const reports = await app.loadPlugins();
    if ((load.plugins ?? "report") === "report") {
      for (const r of reports) {
        if (r.status === "failed") {
          console.error(terminalSafe(app.secrets.redact(`navi: plugin ${r.file} skipped: ${r.error}`)));
        }
      }
    }
    return app;
  };
  let status = 0;
  const program = buildProgram(commander, {
    createApp,
    track: (a) => (app = a),
    exit: (code) => (status = code),
    args,
  });
  const redact = (text: string) => app?.secrets.redact(text) ?? text;
  const removeGuard = installCrashGuard({
    line: (text) => console.error(terminalSafe(redact(text))),
    log: (text) => app?.log("errors.log", text),
  });
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (err) {
    const { ConfigError, SessionError } = await import("../mod.ts");
    const message = `navi: ${err instanceof Error ? err.message : String(err)}`;
    console.error(terminalSafe(app ? app.secrets.redact(message) : message));
    status = err instanceof ConfigError || err instanceof SessionError ? 2 : 1;
  } finally {
    await app?.close();
    await Promise.all([...(early?.values() ?? [])].map((p) => p.stop()));
    removeGuard();
  }
  return status;
}

const VALUE_OPTIONS = new Set([
  "-p",
  "--print",
  "--output-format",
  "--provider",
  "--model",
  "--approval",
  "--resume",
]);

/**
 * Whether a command line runs a command that connects MCP servers (the REPL, `-p`, `tools`, `mcp list`,
 * `mcp resources`), judged before commander loads. A wrong guess costs time, never correctness: servers
 * started for nothing are ended, and a command that was not foreseen starts its servers itself.
 */
export function connectsMcp(args: readonly string[]): boolean {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (["-h", "--help", "-v", "--version"].includes(a)) return false;
    if (a.startsWith("-")) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  if (!words.length) return true;
  if (words[0] === "tools") return true;
  return words[0] === "mcp" && (words[1] === undefined || words[1] === "list" || words[1] === "resources");
}

/** Start the configured stdio MCP servers (see prespawnStdioServers) and begin loading the MCP SDK. */
async function startStdioServers(): Promise<Map<string, StdioProcess>> {
  const [{ prespawnStdioServers }, { naviHome }] = await Promise.all([
    import("../mcp/prespawn.ts"),
    import("../home.ts"),
  ]);
  const early = prespawnStdioServers({ home: naviHome(), workspace: Deno.cwd(), env: Deno.env });
  if (early.size) import("../mcp/mod.ts").catch(() => {});
  return early;
}
