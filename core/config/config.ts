import { z } from "zod";
import {
  type AgentSettings,
  APPROVAL_MODES,
  type CheckpointSettings,
  type CompatSettings,
  type Config,
  DEFER_MODES,
  type McpServerConfig,
  type NotifySettings,
  type PermissionSettings,
  type PluginSettings,
  type ProviderSettings,
  REASONING_EFFORTS,
  SANDBOX_MODES,
  type SandboxSettings,
  type ToolSettings,
} from "./types.ts";
import { configPath } from "../home.ts";

const stringMap = z.record(z.string(), z.string());

const ProviderSchema = z.strictObject({
  preset: z.string().min(1).optional(),
  base_url: z.string().min(1).optional(),
  api_key: z.string().optional(),
  prompt_cache_key: z.boolean().optional(),
  api: z.enum(["chat", "responses"]).optional(),
  reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
  cache_control: z.union([z.literal("anthropic"), z.literal(false)]).optional(),
});

const ToolsSchema = z.strictObject({
  defer: z.enum(DEFER_MODES).optional(),
  defer_above_tokens: z.number().int().nonnegative().optional(),
  cache_ttl_s: z.number().nonnegative().optional(),
  search_above: z.number().int().positive().optional(),
});

/** The rule for MCP server names, in words (for error messages). */
export const SERVER_NAME_RULE = "use letters, digits, _ and - without a double underscore";

/** Whether `name` is a valid MCP server name (it becomes part of `mcp__<server>__<tool>`). */
export function validServerName(name: string): boolean {
  return /^[a-zA-Z0-9_-]+$/.test(name) && !name.includes("__");
}

const McpServerSchema = z
  .strictObject({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().optional(),
    url: z.url().optional(),
    headers: stringMap.optional(),
    enabled: z.boolean().optional(),
    connect_timeout_s: z.number().positive().optional(),
    call_timeout_s: z.number().positive().optional(),
    max_call_s: z.number().positive().optional(),
    oauth: z.strictObject({
      client_id: z.string().min(1).optional(),
      client_secret: z.string().optional(),
      scopes: z.array(z.string().min(1)).optional(),
      client_metadata_url: z.url().optional(),
      redirect_port: z.number().int().min(1).max(65535).optional(),
    }).optional(),
  })
  .superRefine((server, ctx) => {
    if (!server.command === !server.url) {
      ctx.addIssue({
        code: "custom",
        message: "needs exactly one of command (stdio) or url (Streamable HTTP)",
      });
    }
    if (server.url && (server.args || server.env || server.cwd)) {
      ctx.addIssue({
        code: "custom",
        message: "args, env and cwd apply to stdio servers (command), not to url",
      });
    }
    if (server.command && (server.headers || server.oauth)) {
      ctx.addIssue({ code: "custom", message: "headers and oauth apply to url servers, not to command" });
    }
  });

const grant = z.union([z.boolean(), z.array(z.string())], {
  error: "must be true, false or a list of strings",
});

const permissionsSchema = z.strictObject({
  read: grant.optional(),
  write: grant.optional(),
  net: grant.optional(),
  env: grant.optional(),
  run: grant.optional(),
});

/**
 * Check a plugin's `export const permissions` (the same shape as `plugins.<name>.permissions` of config.json):
 * the permissions, or the first problem as `<path>: <message>` (`net.0: ...`).
 */
export function parsePermissions(
  value: unknown,
): { ok: true; permissions: PermissionSettings } | { ok: false; error: string } {
  const parsed = permissionsSchema.safeParse(value);
  if (parsed.success) return { ok: true, permissions: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${issue.path.join(".")}: ${issue.message}` };
}

const PluginSettingsSchema = z.looseObject({ permissions: permissionsSchema.optional() });

const ApprovalSchema = z.preprocess(
  (v) => (typeof v === "string" ? { mode: v } : v),
  z.strictObject({
    mode: z.enum(APPROVAL_MODES).optional(),
    allow: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
  }),
);

const SandboxSchema = z.strictObject({
  mode: z.enum(SANDBOX_MODES).optional(),
  network: z.boolean().optional(),
  writable: z.array(z.string().min(1)).optional(),
  network_commands: z.array(z.string().min(1)).optional(),
  auto_allow: z.boolean().optional(),
});

const CheckpointsSchema = z.strictObject({
  enabled: z.boolean().optional(),
  max_file_mb: z.number().positive().optional(),
  max_session_mb: z.number().positive().optional(),
  keep_sessions: z.number().int().min(1).optional(),
  max_files: z.number().int().positive().optional(),
});

const AgentsSchema = z.strictObject({
  max_parallel: z.number().int().min(1).max(32).optional(),
  max_depth: z.number().int().min(0).max(8).optional(),
  max_turns: z.number().int().min(1).optional(),
});

const NotifySchema = z.strictObject({
  after_s: z.number().nonnegative().optional(),
});

const RetrySchema = z.strictObject({
  max_retries: z.number().int().min(0).optional(),
  max_wait_s: z.number().min(0).optional(),
});

const CompatSchema = z.strictObject({
  claude: z.boolean().optional(),
  agents: z.boolean().optional(),
});

const ConfigSchema = z.strictObject({
  providers: z.record(z.string(), ProviderSchema).optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  max_steps: z.number().int().positive().optional(),
  retry: RetrySchema.optional(),
  mcp_servers: z.record(z.string(), McpServerSchema).optional(),
  approval: ApprovalSchema.optional(),
  sandbox: SandboxSchema.optional(),
  checkpoints: CheckpointsSchema.optional(),
  agents: AgentsSchema.optional(),
  features: z.record(z.string(), z.boolean()).optional(),
  plugins: z.record(z.string(), PluginSettingsSchema).optional(),
  tools: ToolsSchema.optional(),
  prices: z.record(
    z.string(),
    z.strictObject({
      input: z.number().nonnegative(),
      cached_input: z.number().nonnegative().optional(),
      output: z.number().nonnegative(),
    }),
  ).optional(),
  models: z.record(
    z.string(),
    z.strictObject({
      context_window: z.number().int().min(1024).optional(),
      max_output_tokens: z.number().int().positive().optional(),
      reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
    }),
  ).optional(),
  notify: z.union([z.boolean(), NotifySchema], { error: 'must be true, false or { "after_s": seconds }' })
    .optional(),
  compat: CompatSchema.optional(),
  hooks: z.record(z.string(), z.unknown()).optional(),
}).superRefine((cfg, ctx) => {
  for (const name of Object.keys(cfg.mcp_servers ?? {})) {
    if (!validServerName(name)) {
      ctx.addIssue({
        code: "custom",
        path: ["mcp_servers", name],
        message: `invalid server name: ${SERVER_NAME_RULE}`,
      });
    }
  }
});

// The documented types in config_types.ts and the schema must describe the same values: a change to one
// without the other fails type checking here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const _configMatches: Same<z.output<typeof ConfigSchema>, Config> = true;
const _providerMatches: Same<z.output<typeof ProviderSchema>, ProviderSettings> = true;
const _serverMatches: Same<z.output<typeof McpServerSchema>, McpServerConfig> = true;
const _sandboxMatches: Same<z.output<typeof SandboxSchema>, SandboxSettings> = true;
const _checkpointsMatch: Same<z.output<typeof CheckpointsSchema>, CheckpointSettings> = true;
const _agentsMatch: Same<z.output<typeof AgentsSchema>, AgentSettings> = true;
const _toolsMatch: Same<z.output<typeof ToolsSchema>, ToolSettings> = true;
const _notifyMatches: Same<z.output<typeof NotifySchema>, NotifySettings> = true;
const _pluginMatches: Same<z.output<typeof PluginSettingsSchema>, PluginSettings> = true;
const _permissionsMatch: Same<z.output<typeof permissionsSchema>, PermissionSettings> = true;
const _compatMatches: Same<z.output<typeof CompatSchema>, CompatSettings> = true;

/** An invalid config file; the message is one line naming the file, the field and the problem. */
export class ConfigError extends Error {}

/** Parse and validate config text; throws ConfigError naming `file`. Never echoes values. */
export function parseConfig(text: string, file: string): Config {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const where = /line (\d+) column (\d+)/.exec(String((err as Error).message));
    throw new ConfigError(`${file}: invalid JSON${where ? ` at line ${where[1]} column ${where[2]}` : ""}`);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? issue.path.join(".") : "(top level)";
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : "";
    throw new ConfigError(`${file}: ${field}: ${issue.message}${more}`);
  }
  return parsed.data as Config;
}

/** Load `config.json` from `home`; a missing file means defaults. Throws ConfigError when invalid. */
export async function loadConfig(home: string): Promise<Config> {
  const file = configPath(home);
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    throw new ConfigError(`${file}: cannot be read (${(err as Error).name})`);
  }
  return parseConfig(text, file);
}

/**
 * Edit config.json atomically: read the raw JSON, apply `edit`, validate, write a temp file and rename it.
 * Keys the edit does not touch are kept as the user wrote them.
 */
export async function updateConfigFile(
  home: string,
  edit: (raw: Record<string, unknown>) => void,
): Promise<Config> {
  const file = configPath(home);
  const text = await Deno.readTextFile(file).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return "{}";
    throw err;
  });
  parseConfig(text, file);
  const raw = JSON.parse(text) as Record<string, unknown>;
  edit(raw);
  const next = JSON.stringify(raw, null, 2) + "\n";
  const config = parseConfig(next, file);
  await Deno.mkdir(home, { recursive: true });
  const tmp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  await Deno.writeTextFile(tmp, next, { mode: 0o600 });
  await Deno.rename(tmp, file);
  return config;
}
