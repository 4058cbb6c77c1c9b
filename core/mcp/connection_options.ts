// What the connections of one navi process share, and where each server stands.
import type { Clock } from "../clock/mod.ts";
import type { Redactor } from "../output/mod.ts";
import type { Elicit } from "./client.ts";
import type { NameClaims } from "./names.ts";
import type { OpenUrl } from "./oauth_provider.ts";
import type { McpTiming } from "./reconnect.ts";
import type { StdioProcess } from "./stdio_process.ts";

/** What every connection of one navi process shares. */
export interface ConnectionOptions {
  /** navi's home directory. */
  home: string;
  /** The workspace root, offered to servers as their only root. */
  workspace: string;
  /** navi's version, sent to servers as the client version. */
  version: string;
  /** The process environment: `$VAR` references, and what stdio servers inherit (see STDIO_PASS_THROUGH). */
  env: { get(key: string): string | undefined; toObject(): Record<string, string> };
  /** Reconnect and circuit-breaker timing. */
  timing: McpTiming;
  /** The clock of reconnect delays, the circuit breaker and OAuth token expiry (default the system clock). */
  clock?: Clock;
  /** Answers servers' elicitation requests; without it they are declined. */
  elicit?: Elicit;
  /** Redacts secrets from what is logged of a server (its stderr). */
  secrets?: Redactor;
  /** Runs the browser step of an OAuth login; without it a server that needs one fails naming the command. */
  openUrl?: OpenUrl;
  /** How long a login waits for the browser to come back (default 300 s). */
  loginTimeoutMs?: number;
  /** Called with every OAuth token and client secret (to redact them everywhere). */
  onSecret?(value: string): void;
  /** Hands over a stdio server process started before the MCP SDK loaded (see `prespawnStdioServers`). */
  takeProcess?(name: string): StdioProcess | undefined;
  /** Decides who owns colliding exposed tool names (config order). */
  claims?: NameClaims;
}

/** Where a server stands. */
export type McpStatus = "connecting" | "connected" | "failed" | "disconnected" | "disabled";

/** How long the browser step of a login may take unless the options say otherwise. */
export const LOGIN_TIMEOUT_MS = 300_000;
