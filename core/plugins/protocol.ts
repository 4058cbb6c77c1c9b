/**
 * The messages between navi and a plugin's worker. The worker side is core/plugins/worker/worker.ts (bundled with zod
 * into core/plugins/worker_js.ts by `deno task embed`); the navi side is core/plugins/host.ts.
 * @module
 */
import type { ApprovalClass } from "../tool/mod.ts";

/** One module of a plugin, type-stripped, with the relative imports to link (offsets into `js`). */
export interface ModuleText {
  /** Display path, e.g. `multi/lib/util.ts`: what errors and stack traces name. */
  file: string;
  /** JavaScript text. */
  js: string;
  /** Relative import specifiers (string literals with their quotes) to replace by the target's URL. */
  imports: { start: number; end: number; target: string }[];
}

/** What `register(navi)` receives besides registerTool, z and log. */
export interface ApiValues {
  workspace: string;
  home: string;
  config: unknown;
  version: string;
}

/** navi -> worker: evaluate the plugin and run `register`. */
export interface InitMessage {
  type: "init";
  /** The plugin's name in messages (`x.ts`, `multi/mod.ts`). */
  name: string;
  /** Dependencies first; the last one is the entry module. */
  modules: ModuleText[];
  api: ApiValues;
  /** Environment for programs the plugin starts (only with `run`; navi's secrets removed). */
  childEnv: Record<string, string> | null;
}

/** A tool definition as it crosses into navi (zod already turned into JSON Schema). */
export interface ToolDefinitionData {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  approval: ApprovalClass;
  concurrencySafe: boolean;
  timeoutMs?: number;
}

/** A hook a plugin registered with `navi.on` (its handler stays in the worker, called as tool `hook:<index>`). */
export interface HookDefinitionData {
  /** The event name as the plugin gave it. */
  event: string;
  /** The matcher ("" for all). */
  matcher: string;
}

/** navi -> worker. */
export type ToWorker =
  | InitMessage
  | { type: "call"; id: number; tool: string; args: Record<string, unknown> }
  | { type: "abort"; id: number; reason: string }
  /** Answer `flushed` once every report already queued has been sent. */
  | { type: "flush" };

/** How a worker can end on its own. */
export type FaultKind = "exit" | "error" | "rejection";

/** worker -> navi. */
export type FromWorker =
  | { type: "booted" }
  | { type: "ready"; tools: ToolDefinitionData[]; permissions: unknown; hooks?: HookDefinitionData[] }
  | { type: "failed"; error: string }
  | { type: "result"; id: number; result: unknown; stack?: string }
  | { type: "log"; line: string }
  | { type: "output"; stream: "stdout" | "stderr"; text: string }
  | { type: "flushed" }
  | { type: "fault"; kind: FaultKind; message: string; stack?: string };
