import type { Config } from "./config.ts";

/** The process environment as navi reads it; `Deno.env` fits. */
export type Env = { get(key: string): string | undefined; toObject(): Record<string, string> };

/** The one rule for environment references in config values: the whole value is `$NAME`. */
export const ENV_REF = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;

/** The variable a `"$VAR"` value refers to, or undefined for a literal value. */
export function envRefName(value: string | undefined): string | undefined {
  return value === undefined ? undefined : ENV_REF.exec(value)?.[1];
}

/** Resolve a `"$VAR"` value from the environment; other values are returned as they are. */
export function resolveEnvRef(value: string | undefined, env: Pick<Env, "get">): string | undefined {
  if (value === undefined) return undefined;
  const name = envRefName(value);
  return name === undefined ? value : env.get(name);
}

/** The secrets navi knows of (API keys, MCP header and env values); redacts them from any text. */
export class Secrets {
  #values = new Set<string>();
  #envNames = new Set<string>(["OPENAI_API_KEY"]);

  /** Collect every secret a config refers to, resolving `$VAR` references. */
  static fromConfig(config: Config, env: Env): Secrets {
    const s = new Secrets();
    s.add(env.get("OPENAI_API_KEY"));
    s.addConfig(config, env);
    return s;
  }

  /**
   * Add the secrets of a config (also one read again after `/mcp add`): provider keys, MCP header values
   * (literal or `$VAR`) and MCP `env` values given as `$VAR`. Referenced variables are also kept from
   * child processes.
   */
  addConfig(config: Config, env: Pick<Env, "get">): void {
    const refs: (string | undefined)[] = [];
    const values: (string | undefined)[] = [];
    for (const p of Object.values(config.providers ?? {})) {
      refs.push(p.api_key);
      values.push(p.api_key);
    }
    for (const server of Object.values(config.mcp_servers ?? {})) {
      const headers = Object.values(server.headers ?? {});
      const envValues = Object.values(server.env ?? {});
      refs.push(...headers, ...envValues);
      values.push(...headers, ...envValues.filter((v) => envRefName(v) !== undefined));
    }
    for (const ref of refs) {
      const name = envRefName(ref);
      if (name) this.#envNames.add(name);
    }
    for (const v of values) this.add(resolveEnvRef(v, env));
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
