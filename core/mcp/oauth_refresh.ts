import { errorMessage } from "../tool/mod.ts";
import type { StoredTokens, TokenStore } from "./oauth_store.ts";
import { type ClientInformation, discoverOAuthServerInfo, refreshAuthorization } from "./sdk.ts";

/** How long a token request may take; the store's lock is held meanwhile, so waiters are bounded too. */
const TOKEN_REQUEST_MS = 30_000;

/** What a refresh transaction ended with. */
export interface RefreshOutcome {
  /** A usable token is stored (refreshed now, or adopted from another process). */
  ok: boolean;
  /** The tokens to use from now on. */
  tokens?: StoredTokens;
  /** Whether a token request was made. */
  requested: boolean;
  /** Why no usable token is there. */
  error?: string;
}

/** What a refresh transaction needs. */
export interface RefreshOptions {
  /** The server's URL (for discovery when nothing was stored). */
  url: string;
  /** The access token this process has been using. */
  known?: string;
  /** The access token the server just answered 401 to. */
  rejected?: string;
  /** Whether tokens are due for a refresh (about to expire). */
  due(tokens: StoredTokens): boolean;
  /** The client to refresh as. */
  client(): ClientInformation | undefined;
  /** A refresh token the authorization server already refused: not sent again. */
  refused?: string;
  /** The clock. */
  now?: () => number;
}

/**
 * The cross-process refresh transaction: under the store's lock, re-read the store; a token another process
 * already refreshed is adopted; otherwise the refresh token is exchanged once and the result saved before it
 * is used. A failure leaves the store as it was (a rotating refresh token another process still holds is never
 * wiped).
 */
export function refreshTokens(store: TokenStore, opts: RefreshOptions): Promise<RefreshOutcome> {
  return store.withLock(async (): Promise<RefreshOutcome> => {
    const data = store.read();
    const stored = data.tokens;
    if (!stored) return { ok: false, requested: false, error: "no stored tokens" };
    const replaced = stored.access_token !== (opts.rejected ?? opts.known);
    if (replaced && !opts.due(stored)) return { ok: true, tokens: stored, requested: false };
    if (!stored.refresh_token) {
      return { ok: false, tokens: stored, requested: false, error: "no refresh token" };
    }
    if (stored.refresh_token === opts.refused) {
      return { ok: false, tokens: stored, requested: false, error: "the refresh token was refused" };
    }
    const fetchFn = (u: string | URL, init?: RequestInit) =>
      fetch(u, { ...init, signal: AbortSignal.timeout(TOKEN_REQUEST_MS) });
    try {
      const client = opts.client();
      if (!client) return { ok: false, tokens: stored, requested: false, error: "no client registration" };
      const discovery = data.discovery ?? await discoverOAuthServerInfo(opts.url, { fetchFn });
      const fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation: client,
        refreshToken: stored.refresh_token,
        resource: discovery.resourceMetadata?.resource,
        fetchFn,
      });
      const now = (opts.now ?? Date.now)();
      const { expires_at: _old, ...previous } = stored;
      const tokens: StoredTokens = {
        ...previous,
        ...fresh,
        refresh_token: fresh.refresh_token ?? stored.refresh_token,
        issued_at: now,
        ...(fresh.expires_in ? { expires_at: now + fresh.expires_in * 1000 } : {}),
      };
      if (!fresh.expires_in) delete tokens.expires_in;
      await store.writeLocked((d) => (d.tokens = tokens));
      return { ok: true, tokens, requested: true };
    } catch (err) {
      const code = (err as { errorCode?: unknown }).errorCode;
      const why = [typeof code === "string" ? code : "", (err as Error).message].filter(Boolean).join(": ");
      return {
        ok: false,
        tokens: stored,
        requested: true,
        error: (why || errorMessage(err)).replace(/\s+/g, " ").slice(0, 200),
      };
    }
  });
}
