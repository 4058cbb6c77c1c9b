// The types a tool and its caller share: approval classes, results, the context a call gets (files, commands,
// sandbox, shells, subagents, checkpoints). Over 300 lines because it is the whole contract of tools/ with the
// engine, in types only.
import type { z } from "zod";

/** How much a tool can change: decides who must approve a call. */
export type ApprovalClass = "read_only" | "write" | "command";

/** Every approval class, in order of how much a tool can change. */
export const APPROVAL_CLASSES: readonly ApprovalClass[] = ["read_only", "write", "command"];

/** The one rule for tool names (OpenAI's): 1-64 characters from a-z A-Z 0-9 _ -. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Every tool result: `ok` plus fields; `_`-prefixed fields are control signals, never sent to the model. */
export type ToolResult =
  | ({ ok: true } & Record<string, unknown>)
  | ({ ok: false; error: string } & Record<string, unknown>);

/** A request for approval of something beyond the tool's own class (e.g. a path outside the workspace). */
export interface ConfirmRequest {
  /** What the action touches, shown to the user (e.g. the resolved path). */
  detail: string;
}

/** A command made ready to run inside the OS sandbox. */
export interface SandboxedCommand {
  /** Whether it may run; when false, `error` is one line for the model and nothing may be spawned. */
  ok: boolean;
  /** The argv to spawn instead of the original one (present when `ok`). */
  argv?: string[];
  /** Why the command may not run (present when not `ok`). */
  error?: string;
  /** Call once the process has exited: checks and repairs what a command may not leave behind; a note or "". */
  done?(): Promise<string>;
  /** Something the command's output should mention (the session's shared network is unavailable). */
  note?: string;
}

/** The OS sandbox as a tool sees it: wraps a process's argv so that it runs confined. */
export interface CommandSandbox {
  /**
   * Prepare `argv` (e.g. `["bash", "-c", command]`) to run in `cwd` inside the sandbox; `command` is the
   * command line the user's `network_commands` rules are matched against.
   */
  wrap(argv: string[], opts: { command: string; cwd: string; network?: boolean }): Promise<SandboxedCommand>;
}

/**
 * How file tools read and write text files. The default is the local file system; a front may route them
 * elsewhere (ACP: the editor's `fs/read_text_file` and `fs/write_text_file`, so that unsaved buffers are what
 * the model sees). Paths are absolute and already judged (inside the workspace, or confirmed).
 */
export interface FileAccess {
  /** The text of the file at `path`; throws when it cannot be read. */
  readText(path: string): Promise<string>;
  /** Replace the file at `path` with `content` (its directory exists). */
  writeText(path: string, content: string): Promise<void>;
}

/** One command for a {@link CommandRunner}: an argv (already wrapped by the sandbox) and how to run it. */
export interface CommandRun {
  /** The program and its arguments. */
  argv: string[];
  /** The working directory (absolute). */
  cwd: string;
  /** The whole environment of the process (navi's secrets removed). */
  env: Record<string, string>;
  /** Kill the process after this many milliseconds. */
  timeoutMs: number;
  /** Kill the process when this aborts. */
  signal: AbortSignal;
  /** The most characters of output to keep (the beginning is kept). */
  maxChars: number;
  /** The tool call the command runs for (a front shows its output there). */
  callId?: string;
  /** Live output, as it arrives. */
  onOutput?(chunk: string): void;
}

/** How a command ended. */
export interface CommandOutcome {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  /** Standard output and error as they interleaved (up to `maxChars`). */
  output: string;
  /** Characters of output that were not kept. */
  dropped: number;
  /** Why navi stopped it, when it did. */
  stopped?: "timeout" | "abort";
}

/**
 * Runs a command for `bash` somewhere other than a local child process (ACP: the editor's `terminal/*`, so
 * the output shows in the editor). Approval and the sandbox apply as before: the argv it gets is the
 * sandbox's.
 */
export interface CommandRunner {
  /** Run `run.argv` to its end (or until killed); never throws for a command that fails. */
  run(run: CommandRun): Promise<CommandOutcome>;
}

/** The narrow context a tool handler receives. */
export interface ToolContext {
  /** The workspace root (absolute). */
  workspace: string;
  /** The id of the tool call being run (absent for direct library callers). */
  callId?: string;
  /** Where file tools read and write text files; absent: the local file system. */
  files?: FileAccess;
  /** Where `bash` runs commands; absent: a local child process. */
  commandRunner?: CommandRunner;
  /** Aborted on Ctrl-C or at the tool's timeout. */
  signal: AbortSignal;
  /** Ask whether an out-of-class action may go ahead; resolves false when refused. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** Live output of a running tool (e.g. bash), shown to the user, not to the model. */
  onOutput?(chunk: string): void;
  /** Progress of a long call (MCP progress notifications), shown to the user. */
  onProgress?(progress: ToolProgress): void;
  /** Environment for child processes (navi's secrets removed); defaults to the process environment. */
  childEnv?(): Record<string, string>;
  /** Confines child processes (bash); absent only for direct library callers, which then run unconfined. */
  sandbox?: CommandSandbox;
  /** Directories outside the workspace that may be read without asking (saved outputs, skill folders). */
  readable?: string[];
  /** The session's background shells (bash `run_in_background`, bash_output, kill_shell). */
  shells?: BackgroundShells;
  /** The session's todo list (todo_write). */
  todos?: TodoBoard;
  /** The Agent Skills the conversation knows (the `skill` tool loads them). */
  skills?: SkillLoader;
  /** Starts subagents (the `task` tool); absent where subagents may not run. */
  subagents?: SubagentLauncher;
}

/** What the `task` tool asks for: one subagent run. */
export interface SubagentRequest {
  /** The agent's name. */
  agent: string;
  /** A few words on the task, shown to the user. */
  description: string;
  /** The task, whole: the subagent's first user message. */
  prompt: string;
}

/** Starts subagents for the `task` tool: a sub-conversation with a fresh context, to its final answer. */
export interface SubagentLauncher {
  /** Run one subagent to its end; never throws (a failure is `{ok: false, error}` with the partial answer). */
  run(request: SubagentRequest, opts: { signal: AbortSignal; callId?: string }): Promise<ToolResult>;
}

/** Where a todo item stands. */
export type TodoStatus = "pending" | "in_progress" | "completed";

/** Every todo status, in the order work moves through them. */
export const TODO_STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "completed"];

/** One item of the session's todo list (the model's plan). */
export interface TodoItem {
  /** What is to be done, in a few words. */
  content: string;
  /** Where it stands. */
  status: TodoStatus;
}

/** The session's todo list as a tool sees it: replaced as a whole on each write. */
export interface TodoBoard {
  /** The list as last written (empty at first). */
  items(): readonly TodoItem[];
  /** Replace the whole list: recorded in the session and announced to the user interface. */
  write(items: readonly TodoItem[]): void;
}

/** How a background shell stands. */
export type ShellStatus = "running" | "exited" | "killed";

/** A background shell and what it printed since it was last read. */
export interface ShellReport {
  /** The shell's id within its session (e.g. `shell_1`). */
  id: string;
  /** The command line it runs. */
  command: string;
  /** running, exited (on its own) or killed (by kill_shell, the user or the end of the session). */
  status: ShellStatus;
  /** The exit code, once it exited. */
  exit_code?: number;
  /** The new output (secrets redacted); the newest part when there was more than fits. */
  output: string;
  /** What was left out of `output` (older new output beyond the cap, lines the filter dropped) and where it is. */
  note?: string;
  /** The file that keeps the shell's whole output (redacted), under the session's folder. */
  log: string;
}

/** One background shell as listed (`/shells`). */
export interface ShellSummary {
  /** Its id. */
  id: string;
  /** The command line. */
  command: string;
  /** How it stands. */
  status: ShellStatus;
  /** The exit code, once it exited. */
  exit_code?: number;
  /** When it started (ms since the epoch). */
  started: number;
  /** Bytes of output it has written (redacted). */
  bytes: number;
}

/** A command to start in the background: already wrapped for the sandbox. */
export interface ShellSpec {
  /** The argv to spawn (the sandbox's, or `bash -c <command>`). */
  argv: string[];
  /** The command line as the model wrote it (shown in lists). */
  command: string;
  /** Where it runs. */
  cwd: string;
  /** Its whole environment. */
  env: Record<string, string>;
  /** Called once the process has exited (the sandbox's `done`); its note is appended to the output. */
  done?(): Promise<string>;
}

/** The background shells of one session, as tools see them. */
export interface BackgroundShells {
  /** Start `spec`; resolves with its id and first output once it printed a little, exited, or a second passed. */
  start(spec: ShellSpec): Promise<ShellReport>;
  /** The output since the last read (only lines `keep` accepts, when given); undefined for an unknown id. */
  read(id: string, opts?: { keep?: (line: string) => boolean }): Promise<ShellReport | undefined>;
  /** Stop a shell (SIGTERM to its processes, SIGKILL after a grace period); undefined for an unknown id. */
  kill(id: string): Promise<ShellReport | undefined>;
  /** Every shell of the session, oldest first. */
  list(): ShellSummary[];
  /** For an id this run does not know: the log an earlier run of the session (before a resume) left, if any. */
  earlier?(id: string): string | undefined;
}

/** A skill's instructions as the `skill` tool returns them. */
export interface LoadedSkill {
  /** The skill's name. */
  name: string;
  /** Its SKILL.md. */
  path: string;
  /** Its folder: the files it mentions are relative to it. */
  dir: string;
  /** The body of SKILL.md, without the frontmatter. */
  body: string;
  /** The other files of its folder (relative paths). */
  files: string[];
}

/** Loads skills by name for the `skill` tool. */
export interface SkillLoader {
  /** The skill `name`; throws an Error with a one-line reason when there is none the model may load. */
  activate(name: string): Promise<LoadedSkill>;
}

/** How far a long call is. */
export interface ToolProgress {
  /** Work done so far (grows with each notification). */
  progress: number;
  /** Work in all, when known. */
  total?: number;
  /** What is happening now. */
  message?: string;
}

/**
 * What a call would change, shown with its approval question (computed without changing anything). A file
 * tool's result carries the same shape as the control field `_diff` (never sent to the model): what it did
 * change, for fronts that show it (ACP diffs).
 */
export interface ToolPreview {
  /** A file written or edited: its content before (`null` for a new file) and after the call. */
  kind: "diff";
  /** The file as shown to the user (relative to the workspace when inside it). */
  path: string;
  /** The content now; `null` when the file does not exist yet. */
  before: string | null;
  /** The content the call would write. */
  after: string;
  /** Set by navi, not the tool: the path resolved outside the workspace (the question then says so). */
  outside?: string;
}

/** Where a tool came from; the tool pool orders by it. */
export interface ToolSource {
  /** Built into navi, from a plugin file, or from an MCP server. */
  kind: "builtin" | "plugin" | "mcp";
  /** `navi`, the plugin file name, or the MCP server name. */
  origin: string;
}

/** Options every tool definition shares. */
export interface ToolOptions {
  /** Whether calls may run in parallel with other concurrency-safe calls of one response. */
  concurrencySafe?: boolean;
  /** How long a call may run (default 120 s). */
  timeoutMs?: number;
  /** Results whose model-visible JSON is longer are cut (default 30,000 characters). */
  maxOutputChars?: number;
}

/** A zod object schema: what a zod-typed tool declares its `parameters` with. */
export type ParametersSchema = z.ZodObject;

/** The definition shape of a zod-typed tool (built-ins and plugins). */
export interface ToolSpec<S extends ParametersSchema> extends ToolOptions {
  /** The name the model calls (see TOOL_NAME_PATTERN). */
  name: string;
  /** Written for the model: what the tool does and when to use it. */
  description: string;
  /** A zod object; validated before the handler runs. */
  parameters: S;
  /** Who must approve a call. */
  approval: ApprovalClass;
  /** Runs one call with validated arguments; returns a result object, a string or throws. */
  handler(args: S["_zod"]["output"], ctx: ToolContext): unknown;
  /** What a call would change, for its approval question; must not change anything. */
  preview?(
    args: S["_zod"]["output"],
    ctx: ToolContext,
  ): ToolPreview | undefined | Promise<ToolPreview | undefined>;
  /**
   * The files a call writes, when they are exactly the ones its arguments name (paths as given, relative to
   * the workspace or absolute). Checkpoints then keep just those; a tool without it that is not read-only
   * may change any file, and checkpoints watch the whole workspace around its calls.
   */
  writes?(args: S["_zod"]["output"]): string[];
}

/** A tool whose parameters are already JSON Schema (MCP tools); the server validates arguments. */
export interface RawToolSpec extends ToolOptions {
  /** The name the model calls. */
  name: string;
  /** Written for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
  /** Who must approve a call. */
  approval: ApprovalClass;
  /** Runs one call with the parsed argument object. */
  handler(args: Record<string, unknown>, ctx: ToolContext): unknown;
}

/** A ready-to-register tool. */
export interface Tool {
  /** The name the model calls. */
  readonly name: string;
  /** Written for the model. */
  readonly description: string;
  /** Who must approve a call. */
  readonly approval: ApprovalClass;
  /** Whether calls may run in parallel with other concurrency-safe calls. */
  readonly concurrencySafe: boolean;
  /** How long a call may run. */
  readonly timeoutMs: number;
  /** Results whose model-visible JSON is longer are cut. */
  readonly maxOutputChars: number;
  /** JSON Schema of the arguments, without `$schema`. */
  readonly inputSchema: Record<string, unknown>;
  /** Why `args` are not valid arguments (each bad field named), or undefined when they are (defined tools). */
  check?(args: unknown): string | undefined;
  /** Validate raw arguments (JSON text or object), run the handler, apply timeout and truncation. Never throws. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** The files a call writes, for tools that declare them (see `ToolSpec.writes`); undefined otherwise. */
  writes?(args: unknown): string[] | undefined;
  /** What a call would change (tools that define a preview); undefined when unknown. Never throws. */
  preview?(args: unknown, ctx: ToolContext): Promise<ToolPreview | undefined>;
  /** A call is on its way (the model is still streaming it): get ready (a plugin tool starts its worker). */
  warm?(): void;
}

/** How long a tool call may run unless its definition says otherwise. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** How long a tool result's model-visible JSON may be unless its definition says otherwise. */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
