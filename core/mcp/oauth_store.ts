import { join } from "node:path";
import type { ClientInformation, DiscoveryState, Tokens } from "./sdk.ts";

/** Tokens as navi stores them: the token endpoint's answer plus when they were issued and expire (ms). */
export type StoredTokens = Tokens & { issued_at?: number; expires_at?: number };

/** What navi keeps for one server's OAuth login. */
export interface StoredAuth {
  /** The server URL these credentials belong to; a store for another URL reads as empty. */
  url?: string;
  /** The client registration (dynamic registration or a client ID metadata document URL). */
  client?: ClientInformation;
  /** The current tokens. */
  tokens?: StoredTokens;
  /** Where the authorization server is and what it supports. */
  discovery?: DiscoveryState;
}

/** The directory of OAuth stores under navi's home. */
export function authDir(home: string): string {
  return join(home, "auth");
}

/**
 * One server's OAuth store: `$NAVI_HOME/auth/mcp-<server>.json`, mode 0600, written atomically (temp file and
 * rename), changed only under an exclusive lock (`mcp-<server>.lock`, an OS file lock, released when a process
 * dies) so that several navi processes never lose each other's writes.
 */
export class TokenStore {
  /** The store file. */
  readonly path: string;
  #dir: string;
  #lockPath: string;
  #url: string;

  /** The store of server `name` (whose URL is `url`) under `home`. */
  constructor(home: string, opts: { name: string; url: string }) {
    this.#dir = authDir(home);
    this.path = join(this.#dir, `mcp-${opts.name}.json`);
    this.#lockPath = join(this.#dir, `mcp-${opts.name}.lock`);
    this.#url = opts.url;
  }

  /** The stored data; empty when there is none, it is unreadable, or it belongs to another URL. */
  read(): StoredAuth {
    try {
      const data = JSON.parse(Deno.readTextFileSync(this.path)) as StoredAuth;
      return data && typeof data === "object" && data.url === this.#url ? data : {};
    } catch {
      return {};
    }
  }

  /** Run `fn` holding the store's lock (waits for another holder, in this or another process). */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    await Deno.mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const file = await Deno.open(this.#lockPath, { create: true, write: true, mode: 0o600 });
    try {
      await file.lock(true);
      return await fn();
    } finally {
      file.close();
    }
  }

  /** Re-read the store under its lock, apply `edit` and write the result; returns what was written. */
  update(edit: (data: StoredAuth) => void): Promise<StoredAuth> {
    return this.withLock(() => this.writeLocked(edit));
  }

  /** `update` for a caller that already holds the lock. */
  async writeLocked(edit: (data: StoredAuth) => void): Promise<StoredAuth> {
    const data = this.read();
    edit(data);
    data.url = this.#url;
    const tmp = `${this.path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(data, null, 2) + "\n", { mode: 0o600 });
    await Deno.chmod(tmp, 0o600);
    await Deno.rename(tmp, this.path);
    return data;
  }

  /** Delete the store (logout); returns whether there was one. */
  remove(): Promise<boolean> {
    return this.withLock(async () => {
      try {
        await Deno.remove(this.path);
        return true;
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return false;
        throw err;
      }
    });
  }
}
