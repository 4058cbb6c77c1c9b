/**
 * The OS sandbox for bash commands: bubblewrap on Linux (read-only root, writable workspace, private /tmp,
 * own PID/IPC/UTS/network namespaces, no capabilities, a seccomp filter against Unix sockets), sandbox-exec on
 * macOS. `Sandbox` is what the engine hands to tools; `status()` is what `navi sandbox` and `navi doctor` show.
 * @module
 */
export { bwrapArgs, type ConfinePlan } from "./bwrap.ts";
export { seatbeltProfile } from "./macos.ts";
export { NetworkCommands } from "./network.ts";
export {
  probeDirectory,
  Sandbox,
  type SandboxOptions,
  type SandboxState,
  type SandboxStatus,
} from "./sandbox.ts";
export { seccompFilter } from "./seccomp.ts";
export type { SelfTestCheck } from "./self_test.ts";
