import { errorMessage } from "../mod.ts";

/** Where the guard reports: one line for the user, the full text for a log file. */
export interface CrashGuardSink {
  /** One line on stderr (or above the prompt). */
  line(text: string): void;
  /** The full record (stack included) for `$NAVI_HOME/logs/errors.log`. */
  log(text: string): void;
}

/** Where an error came from, judged by the first stack frame that is not Deno's own: a package or a file. */
export function errorSource(err: unknown): string {
  const stack = err instanceof Error ? err.stack ?? "" : "";
  for (const m of stack.matchAll(/\(?((?:file|npm|https?|data|blob):[^\s)]+?):\d+:\d+\)?$/gm)) {
    const url = m[1];
    const pkg = /node_modules\/\.deno\/([^/]+?)@\d[^/]*\/node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url) ??
      /\/npm\/[^/]+\/(@[^/]+\/[^/]+|[^/]+)\/\d/.exec(url);
    if (pkg) return `npm package ${pkg[2] ?? pkg[1]}`;
    if (url.startsWith("file:")) return new URL(url).pathname.split("/").slice(-2).join("/");
    return url.slice(0, 40);
  }
  return "unknown source";
}

/**
 * Keep navi alive when a callback (an MCP client handler, a library timer) throws or rejects outside any
 * awaited call: the error is logged with its source and its stack, one line is shown, and the turn goes on.
 * Returns a function that removes the guard.
 */
export function installCrashGuard(sink: CrashGuardSink): () => void {
  const report = (kind: string, err: unknown) => {
    const source = errorSource(err);
    sink.log(`${kind} from ${source}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    sink.line(
      `navi: ${kind} from ${source}: ${errorMessage(err).split("\n")[0]} (logged in logs/errors.log)`,
    );
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    e.preventDefault();
    report("unhandled rejection", e.reason);
  };
  const onError = (e: ErrorEvent) => {
    e.preventDefault();
    report("uncaught error", e.error ?? e.message);
  };
  globalThis.addEventListener("unhandledrejection", onRejection);
  globalThis.addEventListener("error", onError);
  return () => {
    globalThis.removeEventListener("unhandledrejection", onRejection);
    globalThis.removeEventListener("error", onError);
  };
}
