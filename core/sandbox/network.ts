// `sandbox.network_commands`: which command lines get network access. The patterns are matched with the
// approval rules' own functions (`parseRule`, `commandSegments`), so an improvement to how rules read a
// command line applies here too.
import { commandSegments, parseRule } from "../approval/mod.ts";

/** Compiled `network_commands` patterns (e.g. `"npm install*"`). */
export class NetworkCommands {
  #rules: RegExp[];

  /** Compile `patterns` once. */
  constructor(patterns: readonly string[] = []) {
    this.#rules = patterns.map((p) => parseRule(`bash(${p})`).command!).filter(Boolean);
  }

  /**
   * Whether `command` gets network: every simple command of it matches a pattern (a matching first part does
   * not carry `; curl ...` along), and it has no command substitution, which could run anything.
   */
  allow(command: string): boolean {
    if (!this.#rules.length || !command.trim() || /`|\$\(|<\(|>\(/.test(command)) return false;
    return commandSegments(command).every((seg) => this.#rules.some((r) => r.test(seg)));
  }
}
