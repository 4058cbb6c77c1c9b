/**
 * The start-up trace (`NAVI_TRACE=startup`): the moment each phase of a run began, in milliseconds since
 * the process started, printed on stderr at exit so that a user who finds navi slow can see where the time
 * went. One object per run, created by the front and passed through the start-up sequence; it loads nothing.
 * @module
 */
export { STARTUP_PHASES, type StartupPhase, StartupTrace, type StartupTraceOptions } from "./startup.ts";
