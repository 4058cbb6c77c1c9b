/**
 * The early start of the terminal front: what runs before commander, the engine and every library load.
 * Its module graph evaluates no npm package (tests/graph_test.ts).
 * @module
 */
import { type EarlyServers, prespawnStdioServers } from "../mcp/mod.ts";
import { naviHome } from "../home.ts";
import { StartupTrace } from "../trace/mod.ts";

/** What the early start hands to `main`. */
export interface EarlyStart {
  /** The run's start-up trace (`NAVI_TRACE=startup`). */
  trace: StartupTrace;
  /** Stdio MCP servers already started (the app adopts them once the config proves valid). */
  servers?: EarlyServers;
}

const VALUE_OPTIONS = new Set([
  "-p",
  "--print",
  "--output-format",
  "--input-format",
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
      if (VALUE_OPTIONS.has(a) && !(args[i + 1] ?? "-").startsWith("-")) i++;
      continue;
    }
    words.push(a);
  }
  if (!words.length) return true;
  if (words[0] === "tools") return true;
  return words[0] === "mcp" && (words[1] === undefined || words[1] === "list" || words[1] === "resources");
}

/**
 * The first step of every run but `--version`: the run's start-up trace, and the configured stdio MCP servers
 * started when the command line will connect them (see prespawnStdioServers). main.ts (and the single file's
 * entry) run it before core/cli/mod.ts and its module graph load, so that the servers' own start overlaps
 * all of navi's loading.
 */
export function startEarly(args: readonly string[]): EarlyStart {
  const trace = StartupTrace.fromEnv(Deno.env);
  if (!connectsMcp(args)) return { trace };
  const servers = prespawnStdioServers({ home: naviHome(), workspace: Deno.cwd(), env: Deno.env, trace });
  return { trace, servers };
}
