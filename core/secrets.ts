import type { Config } from "./config.ts";

type Env = { get(key: string): string | undefined; toObject(): Record<string, string> };

/** Resolve a `"$VAR"` value from the environment; other values are returned as they are. */
export function resolveEnvRef(value: string | undefined, env: Pick<Env, "get">): string | undefined {
  if (value === undefined) return undefined;
  const m = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  return m ? env.get(m[1]) : value;
}

/** The secrets navi knows of (API keys, MCP header and env values); redacts them from any text. */
export class Secrets {
  #values = new Set<string>();
  #envNames = new Set<string>(["OPENAI_API_KEY"]);

  /** Collect every secret a config refers to, resolving `$VAR` references. */
  static fromConfig(config: Config, env: Env): Secrets {
    const s = new Secrets();
    s.add(env.get("OPENAI_API_KEY"));
    const refs: (string | undefined)[] = [];
    for (const p of Object.values(config.providers ?? {})) refs.push(p.api_key);
    for (const server of Object.values(config.mcp_servers ?? {})) {
      refs.push(...Object.values(server.headers ?? {}), ...Object.values(server.env ?? {}));
    }
    for (const ref of refs) {
      const m = ref && /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(ref);
      if (m) s.#envNames.add(m[1]);
    }
    for (const p of Object.values(config.providers ?? {})) s.add(resolveEnvRef(p.api_key, env));
    for (const server of Object.values(config.mcp_servers ?? {})) {
      for (const v of Object.values(server.headers ?? {})) s.add(resolveEnvRef(v, env));
    }
    return s;
  }

  /** Remember a secret value (values under 8 characters are too common to redact safely). */
  add(value: string | undefined): void {
    if (value && value.length >= 8) this.#values.add(value);
  }

  /** Replace every known secret in `text` with `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const v of this.#values) if (out.includes(v)) out = out.split(v).join("[redacted]");
    return out;
  }

  /** The environment for child processes: the process environment minus navi's secrets. */
  childEnv(env: Env): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(env.toObject())) {
      if (this.#envNames.has(k) || this.#values.has(v)) continue;
      out[k] = v;
    }
    return out;
  }
}
