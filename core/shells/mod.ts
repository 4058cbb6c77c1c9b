/**
 * Background shells: the long-running processes one session started (`bash` with `run_in_background`), their
 * output kept redacted in the session's folder and read in parts, stopped on request and with the session
 * (SIGTERM to every process, SIGKILL after a grace period). Each is recorded under `$NAVI_HOME/shells/`, so
 * that {@link cleanOrphans} at the next start stops what a navi killed with SIGKILL left behind.
 * @module
 */
export { MAX_READ_CHARS, ShellManager, type ShellManagerOptions } from "./manager.ts";
export { MAX_LOG_BYTES } from "./log.ts";
export { cleanOrphans, type Orphan, type ProcessId, recordsDir, type ShellRecord } from "./orphans.ts";
