/** The approval modes, from the most to the least careful. */
export const APPROVAL_MODES = ["plan", "ask", "auto"] as const;
/** Who approves tool calls: nobody may change anything (plan), the user (ask), nobody needs to (auto). */
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The reasoning efforts a provider may be asked for (which ones a model accepts is the provider's to say). */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
/** How hard a reasoning model thinks (`reasoning_effort`). */
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** One OpenAI-compatible endpoint in `providers` (an entry named like a preset starts from the preset). */
export interface ProviderSettings {
  /** A preset to start from (`navi providers` lists them); default: the preset of the entry's name, if any. */
  preset?: string;
  /** The endpoint, e.g. `https://api.openai.com/v1` (default: the preset's). */
  base_url?: string;
  /** The key, or `"$VAR"` to read it from that environment variable (default: the preset's variable). */
  api_key?: string;
  /** false: requests carry no `prompt_cache_key` (for servers that reject unknown fields); default true. */
  prompt_cache_key?: boolean;
  /** `chat` (Chat Completions, default) or `responses` (OpenAI's Responses API, stateless). */
  api?: "chat" | "responses";
  /** The reasoning effort requests ask for (a model's `models.<name>.reasoning_effort` wins). */
  reasoning_effort?: ReasoningEffort;
  /**
   * `anthropic`: mark the stable prefix with `cache_control` breakpoints (Anthropic models behind a gateway);
   * false: never. Default: on for OpenRouter model ids starting with `anthropic/`.
   */
  cache_control?: "anthropic" | false;
}

/** One entry of `mcp_servers`: exactly one of `command` (stdio) or `url` (Streamable HTTP). */
export interface McpServerConfig {
  /** The program of a stdio server. */
  command?: string;
  /** Its arguments. */
  args?: string[];
  /** Extra environment of a stdio server; `"$VAR"` values come from navi's environment and are secrets. */
  env?: Record<string, string>;
  /** Working directory of a stdio server (default: the workspace). */
  cwd?: string;
  /** The endpoint of a Streamable HTTP server. */
  url?: string;
  /** HTTP headers; values (literal or `"$VAR"`) are secrets. */
  headers?: Record<string, string>;
  /** false keeps the server configured but off (default true). */
  enabled?: boolean;
  /** Seconds to connect and list tools (default 30). */
  connect_timeout_s?: number;
  /**
   * Seconds a tool call may take without news (default 120): a call whose server reports progress keeps
   * running while progress arrives, up to `max_call_s`.
   */
  call_timeout_s?: number;
  /** The absolute limit of one tool call in seconds, progress or not (default 1800). */
  max_call_s?: number;
  /** OAuth settings of a Streamable HTTP server (discovery and dynamic registration need none of them). */
  oauth?: McpOAuthConfig;
}

/** OAuth settings of one Streamable HTTP server. */
export interface McpOAuthConfig {
  /** A client id registered with the authorization server beforehand (skips dynamic registration). */
  client_id?: string;
  /** Its secret, or `"$VAR"` to read it from that environment variable; a secret. */
  client_secret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /** An https URL of a client ID metadata document, used as the client id where servers accept one. */
  client_metadata_url?: string;
  /** The loopback port of the login redirect (default: the port of the last login, else any free one). */
  redirect_port?: number;
}

/** The `approval` section (a bare mode string is accepted too). */
export interface ApprovalSettings {
  /** The mode to start in (default "ask"). */
  mode?: ApprovalMode;
  /** Rules that skip the question in ask mode: tool names or globs, or `bash(<command prefix>*)`. */
  allow?: string[];
  /** Rules that refuse a call in every mode. */
  deny?: string[];
}

/** Sandbox modes: `auto` confines bash where the OS allows it and refuses bash otherwise; `off` never confines it. */
export const SANDBOX_MODES = ["auto", "off"] as const;
/** How bash commands are confined (see `SandboxSettings`). */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** The `sandbox` section: how `bash` commands are confined by the OS. */
export interface SandboxSettings {
  /** `auto` (default): bubblewrap on Linux, sandbox-exec on macOS, and bash refuses when neither works. */
  mode?: SandboxMode;
  /** Give every command network access (default false: no network, no Unix sockets). */
  network?: boolean;
  /** Extra writable directories (`~/` is the home directory; relative paths start at the workspace). */
  writable?: string[];
  /** Commands that get network access, e.g. `"npm install*"`: every part of the command line must match. */
  network_commands?: string[];
  /** In ask mode, run bash without asking while the sandbox is enforced (default false); deny rules apply. */
  auto_allow?: boolean;
}

/** The `checkpoints` section: what navi keeps so that `/rewind` and `navi rewind` can restore files. */
export interface CheckpointSettings {
  /** Keep checkpoints of the files navi's tools change (default true). */
  enabled?: boolean;
  /** Files larger than this many megabytes are not kept (default 10). */
  max_file_mb?: number;
  /** A session's store keeps at most this many megabytes of file contents (default 500). */
  max_session_mb?: number;
  /** Checkpoint stores of this many recent sessions are kept; older ones are deleted (default 20). */
  keep_sessions?: number;
  /** In a workspace with more files than this, what bash changes is not kept (default 100000). */
  max_files?: number;
}

/** The `agents` section: how subagents (the `task` tool) run. */
export interface AgentSettings {
  /** Subagents of one response that run at the same time (default 4). */
  max_parallel?: number;
  /** How deep subagents may nest: 1 (default) lets the conversation start subagents that cannot start more. */
  max_depth?: number;
  /** Model requests a subagent may make when its file sets no `maxTurns` (default 20). */
  max_turns?: number;
}

/** The `retry` section: how failed model requests (429, 5xx, 408, 409, connection failures) are retried. */
export interface RetrySettings {
  /** Retries after the first try (default 3). */
  max_retries?: number;
  /**
   * The longest wait in seconds navi accepts before a retry (default 60); a provider's `retry-after` asking
   * for more fails the request at once.
   */
  max_wait_s?: number;
}

/** How a change of the tool list reaches the model mid-session (see `ToolSettings.defer`). */
export const DEFER_MODES = ["auto", "never", "always"] as const;
/** `auto`: fold small or cold changes, defer the rest; `never`: always fold; `always`: defer until a cold point. */
export type DeferMode = (typeof DEFER_MODES)[number];

/** The `tools` section: how tool-list changes and large tool sets are sent (prompt-cache economics). */
export interface ToolSettings {
  /**
   * `auto` (default): a change is folded into the tools array when little would be billed again or the cache
   * is cold, else deferred (announced in a reminder, called through `call_tool`); `never`: always folded;
   * `always`: deferred until a cold point.
   */
  defer?: DeferMode;
  /** `auto` folds a change while the conversation after the tools is at most this many tokens (default 4000). */
  defer_above_tokens?: number;
  /** Seconds after which the provider's cache counts as cold and deferred changes are folded (default 300). */
  cache_ttl_s?: number;
  /** More tools than this (or 128) in all: further MCP tools are found with `find_tools` (default 64). */
  search_above?: number;
}

/** Prices of one model in US dollars per million tokens, for `/usage` and `--output-format json`. */
export interface ModelPriceSettings {
  /** Prompt tokens. */
  input: number;
  /** Prompt tokens served from the provider's cache (default: the input price). */
  cached_input?: number;
  /** Generated tokens. */
  output: number;
}

/** The limits of one model in `models.<name>` (override navi's built-in figures for its family). */
export interface ModelSettings {
  /** Tokens the model reads and writes in one request, prompt and answer together. */
  context_window?: number;
  /** The most tokens one answer may have; kept free of the prompt. */
  max_output_tokens?: number;
  /** The reasoning effort requests with this model ask for (beats the provider's). */
  reasoning_effort?: ReasoningEffort;
}

/**
 * What a plugin may do besides computing (`plugins.<name>.permissions`): each entry `true` (all of it), a list
 * (those entries) or `false`. The same shape as the plugin API's `PluginPermissions` (a compile-time check in
 * core/plugins keeps them equal: the plugin API is declared there, config must not import it).
 */
export interface PermissionSettings {
  /** Files and directories it may read. */
  read?: boolean | string[];
  /** Files and directories it may write. */
  write?: boolean | string[];
  /** Hosts it may connect to (`host[:port]`). */
  net?: boolean | string[];
  /** Environment variables it may read (never navi's secrets). */
  env?: boolean | string[];
  /** Programs it may start. */
  run?: boolean | string[];
}

/** One `plugins.<name>` section: `permissions` is navi's; every other key is handed to the plugin. */
export interface PluginSettings {
  /** Replaces the permissions the plugin declares (to narrow or widen them). */
  permissions?: PermissionSettings;
  /** Settings the plugin reads as `navi.config`. */
  [key: string]: unknown;
}

/** The `notify` section: terminal notifications when navi waits for the user (`false` turns them off). */
export interface NotifySettings {
  /** A turn that ends after this many seconds or more asks for a notification (default 10). */
  after_s?: number;
}

/**
 * The `compat` section: which other agents' folders navi reads besides its own `.navi/` (both on by default).
 */
export interface CompatSettings {
  /** Claude Code's: `.mcp.json`, `.claude/commands`, `.claude/skills`, `~/.claude/commands`, `~/.claude/skills`. */
  claude?: boolean;
  /** The open Agent Skills folders: `.agents/skills`, `~/.agents/skills`. */
  agents?: boolean;
}

/** A validated config.json (`$NAVI_HOME/config.json`). Every field is optional. */
export interface Config {
  /** OpenAI-compatible endpoints by name. */
  providers?: Record<string, ProviderSettings>;
  /** The provider to use: a `providers` entry or a preset (default: the only entry, else the OPENAI_* variables). */
  provider?: string;
  /** The model to use. */
  model?: string;
  /** Model requests per user turn before the loop stops (default 50). */
  max_steps?: number;
  /** How failed model requests are retried. */
  retry?: RetrySettings;
  /** MCP servers by name (letters, digits, _ and -, no `__`). */
  mcp_servers?: Record<string, McpServerConfig>;
  /** Approval mode and rules. */
  approval?: ApprovalSettings;
  /** How bash commands are confined by the OS. */
  sandbox?: SandboxSettings;
  /** What navi keeps for rewinding files. */
  checkpoints?: CheckpointSettings;
  /** How subagents run. */
  agents?: AgentSettings;
  /** `{ "<tool name or glob>": false }` switches tools off. */
  features?: Record<string, boolean>;
  /** Per-plugin settings: `plugins.<name>` (file stem or folder name) is handed to that plugin. */
  plugins?: Record<string, PluginSettings>;
  /** Tool-list changes and large tool sets (prompt cache). */
  tools?: ToolSettings;
  /** Prices per model name (as configured or passed with --model): cost in `/usage` and JSON output. */
  prices?: Record<string, ModelPriceSettings>;
  /** Context window and output limit per model name; compaction keeps each request within them. */
  models?: Record<string, ModelSettings>;
  /**
   * Terminal notifications (OSC 9 / OSC 777) when a long turn ends or an approval waits; `false` turns them
   * off (default on, after 10 s).
   */
  notify?: boolean | NotifySettings;
  /** Which other agents' folders are read (`.claude/`, `.agents/`, `.mcp.json`). */
  compat?: CompatSettings;
  /**
   * Hooks by event, in Claude Code's shape (`{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type":
   * "command", "command": "..."}]}]}`); checked entry by entry by core/hooks, which names `file:line`.
   */
  hooks?: Record<string, unknown>;
}
