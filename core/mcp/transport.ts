import { join } from "node:path";
import type { McpServerConfig } from "../config.ts";
import { RedactingStream, type Redactor, resolveEnvRef } from "../secrets.ts";
import { getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport } from "./sdk.ts";

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
  const out: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [k, v] of Object.entries(env.toObject())) {
    if (STDIO_PASS_THROUGH.some((p) => (typeof p === "string" ? p === k : p.test(k)))) out[k] = v;
  }
  for (const [k, v] of Object.entries(config.env ?? {})) {
    const value = resolveEnvRef(v, env);
    if (value !== undefined) out[k] = value;
  }
  return out;
}

/**
 * The SDK transport for one configured server: Streamable HTTP with `$VAR` headers resolved, or stdio with
 * `stdioEnvironment` and stderr appended to `logs/mcp-<name>.log`.
 */
export function createTransport(
  name: string,
  config: McpServerConfig,
  opts: {
    home: string;
    workspace: string;
    env: { get(key: string): string | undefined; toObject(): Record<string, string> };
    secrets?: Redactor;
  },
): {
  transport: StdioClientTransport | StreamableHTTPClientTransport;
  pid?: () => number | null | undefined;
} {
  if (config.url) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(config.headers ?? {})) {
      const value = resolveEnvRef(v, opts.env);
      if (value === undefined) throw new Error(`header ${k} refers to ${v}, which is not set`);
      headers[k] = value;
    }
    return {
      transport: new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers } }),
    };
  }
  const transport = new StdioClientTransport({
    command: config.command!,
    args: config.args ?? [],
    env: stdioEnvironment(config, opts.env),
    cwd: config.cwd ?? opts.workspace,
    stderr: "pipe",
  });
  const logDir = join(opts.home, "logs");
  Deno.mkdirSync(logDir, { recursive: true });
  const log = join(logDir, `mcp-${name}.log`);
  const decoder = new TextDecoder();
  const redacting = opts.secrets ? new RedactingStream(opts.secrets) : undefined;
  const append = (text: string) => {
    try {
      if (text) Deno.writeTextFileSync(log, text, { append: true });
    } catch { /* logging must never take a server down */ }
  };
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    const text = decoder.decode(chunk, { stream: true });
    append(redacting ? redacting.push(text) : text);
  });
  transport.stderr?.on("end", () => append(redacting?.flush() ?? ""));
  return { transport, pid: () => transport.pid };
}
