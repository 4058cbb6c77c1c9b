import type { Config } from "../config/mod.ts";

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

/** What redacts text: whole secrets out of a text, and how much of a text's end could begin one. */
export interface Redactor {
  /** Replace every known secret in `text` with `[redacted]`. */
  redact(text: string): string;
  /** The length of the longest end of `text` that is the beginning of a secret (to hold back while streaming). */
  heldBack(text: string): number;
}

/** The secrets navi knows of (API keys, MCP header and env values, OAuth tokens); redacts them from any text. */
export class Secrets implements Redactor {
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
   * (literal or `$VAR`), MCP `env` values given as `$VAR` and OAuth client secrets. Referenced variables are also kept from
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
      const clientSecret = server.oauth?.client_secret;
      refs.push(...headers, ...envValues, clientSecret);
      values.push(...headers, ...envValues.filter((v) => envRefName(v) !== undefined), clientSecret);
    }
    for (const ref of refs) {
      const name = envRefName(ref);
      if (name) this.#envNames.add(name);
    }
    for (const v of values) this.add(resolveEnvRef(v, env));
  }

  /**
   * Remember a secret value (values under 8 characters are too common to redact safely), also in its
   * JSON-escaped spellings, as it appears inside a serialized record (and in tool-call arguments there).
   */
  add(value: string | undefined): void {
    if (!value || value.length < 8) return;
    const once = JSON.stringify(value).slice(1, -1);
    for (const v of [value, once, JSON.stringify(once).slice(1, -1)]) this.#values.add(v);
  }

  /** Replace every known secret in `text` with `[redacted]` (longer secrets first). */
  redact(text: string): string {
    let out = text;
    const values = [...this.#values].sort((a, b) => b.length - a.length);
    for (const v of values) if (out.includes(v)) out = out.split(v).join("[redacted]");
    return out;
  }

  /** The length of the longest end of `text` that is the beginning of a known secret. */
  heldBack(text: string): number {
    let held = 0;
    for (const v of this.#values) {
      for (let k = Math.min(v.length - 1, text.length); k > held; k--) {
        if (text.endsWith(v.slice(0, k))) {
          held = k;
          break;
        }
      }
    }
    return held;
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

/**
 * Redacts text that arrives in pieces (a streamed answer, a child's output): a secret split across pieces is
 * still caught, because the end of what was seen is held back while it could be the beginning of one.
 */
export class RedactingStream {
  #redactor: Redactor;
  #pending = "";

  /** Redact with `redactor` (a Secrets). */
  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** Take in a piece; returns the redacted text that is safe to pass on now. */
  push(text: string): string {
    const all = this.#redactor.redact(this.#pending + text);
    const hold = this.#redactor.heldBack(all);
    this.#pending = all.slice(all.length - hold);
    return all.slice(0, all.length - hold);
  }

  /** The text held back so far (it is not a whole secret); the stream starts empty again. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    return rest;
  }
}
