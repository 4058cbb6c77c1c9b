// A project's settings: `.navi/config.json` files and `.mcp.json`, checked for what a repository may not set,
// merged over the user's config.json with the file each value came from.
import { resolve } from "node:path";
import {
  APPROVAL_MODES,
  type Config,
  ConfigError,
  type McpServerConfig,
  parseConfig,
  SERVER_NAME_RULE,
  validServerName,
} from "../config/mod.ts";

/** What one project file contributes, checked. */
export interface ProjectSettings {
  /** The file. */
  file: string;
  /** Its settings without what was refused; `mcp_servers` and `approval.allow` count only once trusted. */
  config: Config;
}

/** The project files read, and the one-line reports about them. */
export interface ProjectConfigRead {
  /** Each file's settings, root first (later files are more specific and win). */
  settings: ProjectSettings[];
  /** One line per refused value or unreadable file, naming the file. */
  problems: string[];
}

/** The effective config: the user's with the project's merged over it. */
export interface MergedConfig {
  /** The config navi runs with. */
  config: Config;
  /** For each value (dotted path: `mcp_servers.docs.command`), the file it came from. */
  provenance: Map<string, string>;
  /** Lines about project values not applied (refused, or waiting for trust). */
  problems: string[];
}

const plain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function readText(file: string): string | undefined {
  try {
    return Deno.readTextFileSync(file);
  } catch {
    return undefined;
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const where = /line (\d+) column (\d+)/.exec(String((err as Error).message));
    throw new ConfigError(`${file}: invalid JSON${where ? ` at line ${where[1]} column ${where[2]}` : ""}`);
  }
}

/** Remove every `api_key` and `base_url` below `value`; returns the dotted paths removed. */
function stripEndpoints(value: unknown, path: string[] = []): string[] {
  if (!plain(value)) return [];
  const removed: string[] = [];
  for (const key of Object.keys(value)) {
    if (key === "api_key" || key === "base_url") {
      delete value[key];
      removed.push([...path, key].join("."));
    } else removed.push(...stripEndpoints(value[key], [...path, key]));
  }
  return removed;
}

/**
 * Take out of a project file's raw settings what a repository may never set: `providers`, `provider`, keys and
 * base URLs (a repository never chooses where your key goes), plugin permissions, and sandbox settings that
 * widen it. Returns one line per refusal.
 */
function refuse(raw: Record<string, unknown>, file: string): string[] {
  const out: string[] = [];
  const no = (what: string, why: string) => out.push(`${file}: ${what} refused: ${why}`);
  for (const key of ["providers", "provider"]) {
    if (key in raw) {
      delete raw[key];
      no(key, "a repository never chooses where your key goes (set providers in your own config.json)");
    }
  }
  for (const path of stripEndpoints(raw)) no(path, "a repository never sets keys or endpoints");
  if (plain(raw.plugins)) {
    for (const [name, section] of Object.entries(raw.plugins)) {
      if (plain(section) && "permissions" in section) {
        delete section.permissions;
        no(`plugins.${name}.permissions`, "only your own config.json grants plugins permissions");
      }
    }
  }
  const sandbox = raw.sandbox;
  if (plain(sandbox)) {
    const widening: [string, boolean][] = [
      ["mode", sandbox.mode === "off"],
      ["network", sandbox.network === true],
      ["auto_allow", sandbox.auto_allow === true],
      ["network_commands", sandbox.network_commands !== undefined],
    ];
    for (const [key, widens] of widening) {
      if (widens) {
        delete sandbox[key];
        no(`sandbox.${key}`, "a repository may only narrow the sandbox");
      }
    }
  }
  return out;
}

/** `.mcp.json` (`{"mcpServers": {...}}`, Claude Code's format) as navi's `mcp_servers`. */
function fromMcpJson(
  raw: unknown,
  file: string,
): { servers: Record<string, McpServerConfig>; problems: string[] } {
  const problems: string[] = [];
  const servers: Record<string, McpServerConfig> = {};
  const list = plain(raw) ? raw.mcpServers : undefined;
  if (!plain(list)) {
    return { servers, problems: [`${file}: no "mcpServers" object; nothing read`] };
  }
  const env = (v: string) => v.replace(/^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/, "$$$1");
  for (const [name, entry] of Object.entries(list)) {
    if (!validServerName(name)) {
      problems.push(`${file}: mcpServers.${name}: invalid server name (${SERVER_NAME_RULE}); skipped`);
      continue;
    }
    if (!plain(entry)) {
      problems.push(`${file}: mcpServers.${name}: not an object; skipped`);
      continue;
    }
    const { type, command, args, env: vars, url, headers, cwd } = entry as Record<string, unknown>;
    if (type === "sse") {
      problems.push(
        `${file}: mcpServers.${name}: type "sse" is not supported (navi speaks Streamable HTTP); skipped`,
      );
      continue;
    }
    const server: Record<string, unknown> = {};
    if (command !== undefined) server.command = command;
    if (args !== undefined) server.args = args;
    if (cwd !== undefined) server.cwd = cwd;
    if (url !== undefined) server.url = url;
    if (plain(vars)) {
      server.env = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, env(String(v))]));
    }
    if (plain(headers)) {
      server.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, env(String(v))]));
    }
    try {
      const checked = parseConfig(JSON.stringify({ mcp_servers: { [name]: server } }), file);
      servers[name] = checked.mcp_servers![name];
    } catch (err) {
      problems.push(`${(err as Error).message.replace("mcp_servers.", "mcpServers.")}; skipped`);
    }
  }
  return { servers, problems };
}

/**
 * Read `.navi/config.json` and `.mcp.json` files (root first); a bad file is one line and is left out.
 * `mcpText` rewrites an `.mcp.json` text before it is read (a plugin bundle's `${CLAUDE_PLUGIN_ROOT}`).
 */
export function readProjectConfig(
  files: { configFiles: string[]; mcpFiles: string[]; mcpText?: (text: string, file: string) => string },
): ProjectConfigRead {
  const settings: ProjectSettings[] = [];
  const problems: string[] = [];
  for (const file of files.mcpFiles) {
    const read = readText(file);
    const text = read !== undefined && files.mcpText ? files.mcpText(read, file) : read;
    if (text === undefined) continue;
    try {
      const read = fromMcpJson(parseJson(text, file), file);
      problems.push(...read.problems);
      if (Object.keys(read.servers).length) settings.push({ file, config: { mcp_servers: read.servers } });
    } catch (err) {
      problems.push(`${(err as Error).message}; the file is ignored`);
    }
  }
  for (const file of files.configFiles) {
    const text = readText(file);
    if (text === undefined) continue;
    try {
      const raw = parseJson(text, file);
      if (!plain(raw)) throw new ConfigError(`${file}: (top level): must be an object`);
      problems.push(...refuse(raw, file));
      settings.push({ file, config: parseConfig(JSON.stringify(raw), file) });
    } catch (err) {
      problems.push(`${(err as Error).message}; the file is ignored`);
    }
  }
  return { settings, problems };
}

function record(prov: Map<string, string>, prefix: string, value: unknown, file: string): void {
  for (const key of [...prov.keys()]) if (key === prefix || key.startsWith(`${prefix}.`)) prov.delete(key);
  if (plain(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) record(prov, `${prefix}.${k}`, v, file);
  } else prov.set(prefix, file);
}

function deepMerge(
  into: Record<string, unknown>,
  from: Record<string, unknown>,
  at: { prov: Map<string, string>; file: string; prefix: string },
): void {
  for (const [key, value] of Object.entries(from)) {
    const path = at.prefix ? `${at.prefix}.${key}` : key;
    if (plain(value) && plain(into[key])) {
      into[key] = { ...(into[key] as Record<string, unknown>) };
      deepMerge(into[key] as Record<string, unknown>, value, { ...at, prefix: path });
    } else {
      into[key] = structuredClone(value);
      record(at.prov, path, value, at.file);
    }
  }
}

const MODE_RANK = Object.fromEntries(APPROVAL_MODES.map((m, i) => [m, i]));

/** The parts of one project file that need special rules; what is left merges over the config as it is. */
function mergeSpecial(
  out: Config,
  from: ProjectSettings,
  opts: { trusted: boolean; workspace: string; prov: Map<string, string>; problems: string[] },
): Config {
  const { approval, sandbox, features, mcp_servers, hooks: _hooks, ...rest } = from.config;
  const { file } = from;
  const { prov, problems } = opts;
  if (mcp_servers && opts.trusted) {
    out.mcp_servers = { ...out.mcp_servers };
    for (const [name, server] of Object.entries(mcp_servers)) {
      out.mcp_servers[name] = server;
      record(prov, `mcp_servers.${name}`, server, file);
    }
  }
  if (approval) {
    const next = { ...out.approval };
    if (approval.mode) {
      const now = next.mode ?? "ask";
      if (MODE_RANK[approval.mode] > MODE_RANK[now]) {
        problems.push(
          `${file}: approval.mode ${approval.mode} refused: a repository may only make approval stricter`,
        );
      } else {
        next.mode = approval.mode;
        prov.set("approval.mode", file);
      }
    }
    if (approval.deny?.length) {
      next.deny = [...(next.deny ?? []), ...approval.deny];
      prov.set("approval.deny", [prov.get("approval.deny"), file].filter(Boolean).join(" + "));
    }
    if (approval.allow?.length && opts.trusted) {
      next.allow = [...(next.allow ?? []), ...approval.allow];
      prov.set("approval.allow", [prov.get("approval.allow"), file].filter(Boolean).join(" + "));
    }
    out.approval = next;
  }
  if (sandbox) {
    const next = { ...out.sandbox, ...sandbox };
    for (const key of Object.keys(sandbox)) prov.set(`sandbox.${key}`, file);
    if (sandbox.writable) {
      const mine = new Set((out.sandbox?.writable ?? []).map((p) => resolve(opts.workspace, p)));
      const kept = sandbox.writable.filter((p) => mine.has(resolve(opts.workspace, p)));
      for (const p of sandbox.writable.filter((p) => !kept.includes(p))) {
        problems.push(
          `${file}: sandbox.writable ${p} refused: a repository may only narrow the writable list`,
        );
      }
      next.writable = kept;
    }
    out.sandbox = next;
  }
  if (features) {
    out.features = { ...out.features };
    for (const [name, on] of Object.entries(features)) {
      if (on && out.features[name] === false) {
        problems.push(`${file}: features.${name} refused: your config.json switches it off`);
        continue;
      }
      out.features[name] = on;
      prov.set(`features.${name}`, file);
    }
  }
  deepMerge(out as Record<string, unknown>, rest, { prov, file, prefix: "" });
  return out;
}

/**
 * The user's config with the project's settings merged over it, root first (later files win). Until the
 * folder is `trusted`, project MCP servers and allow rules are left out (they run code or widen permissions).
 */
export function mergeConfig(
  user: { config: Config; file: string },
  project: readonly ProjectSettings[],
  opts: { trusted: boolean; workspace: string },
): MergedConfig {
  const provenance = new Map<string, string>();
  record(provenance, "", user.config, user.file);
  for (const key of [...provenance.keys()]) {
    provenance.set(key.replace(/^\./, ""), provenance.get(key)!);
    if (key.startsWith(".")) provenance.delete(key);
  }
  provenance.delete("");
  const problems: string[] = [];
  let config: Config = structuredClone(user.config);
  for (const settings of project) {
    config = mergeSpecial(config, settings, { ...opts, prov: provenance, problems });
  }
  return { config, provenance, problems };
}
