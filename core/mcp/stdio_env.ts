import type { McpServerConfig } from "../config/mod.ts";
import { resolveEnvRef } from "../output/mod.ts";

/** What the MCP SDK's stdio transport passes to a server by default (its `DEFAULT_INHERITED_ENV_VARS`). */
export const SDK_DEFAULT_ENV: readonly string[] = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/**
 * Variables a stdio server inherits besides the SDK's minimal defaults (HOME, PATH, SHELL, TERM, USER,
 * LOGNAME): what a server started with `deno run npm:...` or `npx -y ...` needs to download its package
 * behind a proxy or a private CA, plus locale and temporary-directory settings. Never navi's secrets.
 */
export const STDIO_PASS_THROUGH: readonly (string | RegExp)[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "DENO_CERT",
  "DENO_DIR",
  "NPM_CONFIG_REGISTRY",
  "LANG",
  /^LC_/,
  "TMPDIR",
  /^XDG_/,
];

/** The environment of a stdio server: SDK defaults, the pass-through list, then the configured `env`. */
export function stdioEnvironment(
  config: Pick<McpServerConfig, "env">,
  env: { get(key: string): string | undefined; toObject(): Record<string, string> },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of SDK_DEFAULT_ENV) {
    const value = env.get(key);
    if (value !== undefined && !value.startsWith("()")) out[key] = value;
  }
  for (const [k, v] of Object.entries(env.toObject())) {
    if (STDIO_PASS_THROUGH.some((p) => (typeof p === "string" ? p === k : p.test(k)))) out[k] = v;
  }
  for (const [k, v] of Object.entries(config.env ?? {})) {
    const value = resolveEnvRef(v, env);
    if (value !== undefined) out[k] = value;
  }
  return out;
}
