/**
 * The OS sandbox for bash commands: bubblewrap on Linux (read-only root, writable workspace, private /tmp,
 * own PID/IPC/UTS namespaces, one network namespace per session, no capabilities, a seccomp filter against
 * Unix sockets), sandbox-exec on macOS. `Sandbox.session()` is what the engine hands to one session's tools;
 * `status()` is what `navi sandbox` and `navi doctor` show.
 * @module
 */
export { bwrapArgs, type ConfinePlan } from "./bwrap.ts";
export { seatbeltProfile } from "./macos.ts";
export { NetworkCommands } from "./network.ts";
export { type NetworkEntry, SessionNetwork } from "./netns.ts";
export {
  probeDirectory,
  Sandbox,
  type SandboxOptions,
  type SandboxState,
  type SandboxStatus,
  SessionSandbox,
} from "./sandbox.ts";
export { seccompFilter } from "./seccomp.ts";
export type { SelfTestCheck } from "./self_test.ts";
