import { type Clock, systemClock } from "../clock/mod.ts";
import type { McpOAuthConfig } from "../config/mod.ts";
import { resolveEnvRef } from "../output/mod.ts";
import { LoopbackRedirect } from "./oauth_redirect.ts";
import { refreshTokens } from "./oauth_refresh.ts";
import { type StoredTokens, TokenStore } from "./oauth_store.ts";
import type { ClientInformation, ClientMetadata, DiscoveryState, OAuthProvider, Tokens } from "./sdk.ts";

/** A server needs a (new) login; the message names the command to run. */
export class LoginRequiredError extends Error {}

/** The browser step of a login: open (or print) the authorization URL. */
export type OpenUrl = (url: URL) => void | Promise<void>;

/** What one server's OAuth provider works with. */
export interface OAuthProviderOptions {
  /** The server's name (for messages and the store file). */
  server: string;
  /** The server's URL. */
  url: string;
  /** navi's home directory (the store lives in `auth/`). */
  home: string;
  /** The server's `oauth` settings. */
  config?: McpOAuthConfig;
  /** For `$VAR` references in `oauth.client_secret`. */
  env: { get(key: string): string | undefined };
  /** Called with every token and client secret, to redact them everywhere. */
  onSecret?(value: string): void;
  /**
   * Present when the browser step may run now: it opens the URL, the redirect comes back to a loopback
   * listener, and a code that does not arrive within `timeoutMs` fails the login. `forceLogin` ignores the
   * stored tokens until new ones arrive (an explicit `navi mcp login`).
   */
  interactive?: { openUrl: OpenUrl; timeoutMs: number; forceLogin?: boolean };
  /** The clock of token expiry and of the login's time limit (default the system clock; tests move it). */
  clock?: Clock;
}

/**
 * navi's `OAuthClientProvider` for one Streamable HTTP server, used by the SDK's `auth()` for discovery,
 * registration, PKCE and the code exchange. navi owns refreshing: the refresh token is never handed to the SDK
 * (whose refresh is not coordinated between processes); instead tokens due to expire are refreshed before a
 * request goes out, and a 401 gets one silent refresh and one retry (`fetch`), both through `refreshTokens`
 * (a lock, a re-read of the store, adopting a token another process refreshed, never wiping the store).
 */
export class NaviOAuthProvider implements OAuthProvider {
  #o: OAuthProviderOptions;
  #store: TokenStore;
  #tokens?: StoredTokens;
  #redirect?: LoopbackRedirect;
  #verifier = "";
  #state = "";
  #pending?: Promise<string>;
  #failedRefresh?: { token: string; why: string };

  /** Set up the provider of `opts.server`; stored tokens are loaded (and registered as secrets) at once. */
  constructor(opts: OAuthProviderOptions) {
    this.#o = opts;
    this.#store = new TokenStore(opts.home, { name: opts.server, url: opts.url });
    if (!opts.interactive?.forceLogin) this.#adopt(this.#store.read().tokens);
    this.#secret(resolveEnvRef(opts.config?.client_secret, opts.env));
  }

  get #clock(): Clock {
    return this.#o.clock ?? systemClock;
  }

  /** The server's token store. */
  get store(): TokenStore {
    return this.#store;
  }

  /** Whether the browser step ran and its code has not been exchanged yet. */
  get pending(): boolean {
    return this.#pending !== undefined;
  }

  /** The loopback redirect URL (interactive), else the one registered at the last login. */
  get redirectUrl(): string {
    if (this.#o.interactive) {
      this.#redirect ??= new LoopbackRedirect({
        preferredPort: this.#o.config?.redirect_port ?? portOf(this.#storedRedirect()),
      });
      return this.#redirect.url;
    }
    return this.#storedRedirect() ?? "http://127.0.0.1/callback";
  }

  /** A client ID metadata document URL from the config, used where the server accepts one. */
  get clientMetadataUrl(): string | undefined {
    return this.#o.config?.client_metadata_url;
  }

  /** What dynamic registration sends. */
  get clientMetadata(): ClientMetadata {
    const scopes = this.#o.config?.scopes;
    return {
      client_name: "navi",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(scopes?.length ? { scope: scopes.join(" ") } : {}),
    };
  }

  /** A fresh `state` for each authorization request. */
  state(): string {
    this.#state = crypto.randomUUID();
    return this.#state;
  }

  /** The configured client, else the stored registration (one for another redirect URL is dropped). */
  clientInformation(): ClientInformation | undefined {
    const id = this.#o.config?.client_id;
    if (id) {
      const secret = resolveEnvRef(this.#o.config?.client_secret, this.#o.env);
      return { client_id: id, ...(secret ? { client_secret: secret } : {}) };
    }
    const client = this.#store.read().client;
    if (!this.#o.interactive) {
      if (!client) throw this.#loginRequired();
      return client;
    }
    const uris = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (client && uris && !uris.includes(this.redirectUrl) && client.client_id !== this.clientMetadataUrl) {
      return undefined;
    }
    return client;
  }

  /** Keep a dynamic registration (or a CIMD client id) for later logins. */
  async saveClientInformation(info: ClientInformation): Promise<void> {
    if (this.#o.config?.client_id) return;
    this.#secret(info.client_secret);
    await this.#store.update((d) => (d.client = info));
  }

  /**
   * The access token for the next request (never the refresh token: navi refreshes itself). Tokens due to
   * expire are refreshed first.
   */
  async tokens(): Promise<Tokens | undefined> {
    if (this.#o.interactive?.forceLogin && !this.#tokens) return undefined;
    if (this.#tokens && this.#due(this.#tokens)) await this.refresh({});
    if (!this.#tokens) return undefined;
    const { refresh_token: _hidden, issued_at: _i, expires_at: _e, ...rest } = this.#tokens;
    return rest;
  }

  /** Store new tokens from a code exchange. */
  async saveTokens(tokens: Tokens): Promise<void> {
    const now = this.#clock.now();
    const stored: StoredTokens = {
      ...tokens,
      issued_at: now,
      ...(tokens.expires_in ? { expires_at: now + tokens.expires_in * 1000 } : {}),
    };
    await this.#store.update((d) => (d.tokens = stored));
    this.#adopt(stored);
    this.#failedRefresh = undefined;
  }

  /** Open the authorization URL (interactive), else fail naming the login command. */
  async redirectToAuthorization(url: URL): Promise<void> {
    const interactive = this.#o.interactive;
    if (!interactive) throw this.#loginRequired();
    this.#pending = this.#redirect!.expect(this.#state, interactive.timeoutMs, this.#clock);
    this.#pending.catch(() => {});
    await interactive.openUrl(url);
  }

  /** Keep the PKCE verifier of the running login. */
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  /** The PKCE verifier of the running login. */
  codeVerifier(): string {
    return this.#verifier;
  }

  /** Keep discovery results for refreshes (also in later processes). */
  async saveDiscoveryState(state: DiscoveryState): Promise<void> {
    await this.#store.update((d) => (d.discovery = state));
  }

  /** Stored discovery results. */
  discoveryState(): DiscoveryState | undefined {
    return this.#store.read().discovery;
  }

  /** Forget what the server rejected; stored tokens are never wiped here (another process may own them). */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier" || scope === "all") this.#verifier = "";
    if (scope === "tokens") return;
    await this.#store.update((d) => {
      if (scope === "all" || scope === "discovery") delete d.discovery;
      if (scope === "all" || scope === "client") delete d.client;
    });
  }

  /** The code of the browser step that is running (see `pending`); clears it. */
  async authorizationCode(): Promise<string> {
    const pending = this.#pending;
    if (!pending) throw new LoginRequiredError("no login is running");
    try {
      return await pending;
    } finally {
      this.#pending = undefined;
    }
  }

  /**
   * Refresh the tokens under the store's lock: a token another process already refreshed (or, after a 401,
   * any token other than `rejected`) is adopted without a request. Returns whether a usable token is there.
   */
  async refresh(opts: { rejected?: string }): Promise<boolean> {
    const outcome = await refreshTokens(this.#store, {
      url: this.#o.url,
      now: () => this.#clock.now(),
      known: this.#tokens?.access_token,
      rejected: opts.rejected,
      refused: this.#failedRefresh?.token,
      due: (t) => this.#due(t),
      client: () => this.clientInformation(),
    });
    if (outcome.tokens) this.#adopt(outcome.tokens);
    if (outcome.requested && outcome.error && outcome.tokens?.refresh_token) {
      this.#failedRefresh = { token: outcome.tokens.refresh_token, why: outcome.error };
    }
    return outcome.ok;
  }

  /** The transport's fetch: a 401 for a request that carried a token gets one silent refresh and one retry. */
  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const sent = new Headers(init?.headers).get("authorization")?.replace(/^Bearer\s+/i, "");
    if (res.status !== 401 || !sent || !(await this.refresh({ rejected: sent }))) return res;
    await res.body?.cancel();
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${this.#tokens!.access_token}`);
    return await fetch(input, { ...init, headers });
  };

  /** End the browser step (close the listener); later authorizations fail naming the login command. */
  async endLogin(): Promise<void> {
    this.#o = { ...this.#o, interactive: undefined };
    this.#pending = undefined;
    await this.#redirect?.close();
  }

  #adopt(tokens: StoredTokens | undefined): void {
    if (!tokens) return;
    this.#tokens = tokens;
    this.#secret(tokens.access_token);
    this.#secret(tokens.refresh_token);
  }

  #due(t: StoredTokens): boolean {
    if (!t.expires_at) return false;
    const lifetime = t.expires_at - (t.issued_at ?? t.expires_at);
    const margin = Math.min(60_000, Math.max(0, lifetime / 2));
    return this.#clock.now() >= t.expires_at - margin;
  }

  #storedRedirect(): string | undefined {
    return (this.#store.read().client as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
  }

  #secret(value: string | undefined): void {
    if (value) this.#o.onSecret?.(value);
  }

  #loginRequired(): LoginRequiredError {
    const why = this.#failedRefresh ? ` (refreshing its token failed: ${this.#failedRefresh.why})` : "";
    return new LoginRequiredError(
      `needs a login${why}: run \`navi mcp login ${this.#o.server}\` (or /mcp login ${this.#o.server})`,
    );
  }
}

function portOf(url: string | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.hostname === "127.0.0.1" && u.port ? Number(u.port) : undefined;
  } catch {
    return undefined;
  }
}
