// An OAuth-protected MCP server for tests, on 127.0.0.1: protected resource metadata, authorization server
// metadata, dynamic registration, an authorize endpoint that approves at once (302 with the code), a token
// endpoint with PKCE, single-use (rotating) refresh tokens and access tokens of `accessTtlS` seconds (60 by
// default; `settings.accessTtlS` changes it for tokens issued later), and `/mcp` (the test server's tools)
// behind bearer auth. `settings.refreshDelayMs` slows refresh answers (so that concurrent clients meet).
// `now` is the clock of token lifetimes (default `Date.now`; a test's fake clock, or one running ahead).
// Counts what clients did.
import { buildServer } from "./mcp_test_server.ts";
import { WebStandardStreamableHTTPServerTransport } from "./mcp_sdk_server.ts";

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return new Uint8Array(digest).toBase64({ alphabet: "base64url", omitPadding: true });
}

/** What the server has seen. */
export interface OAuthCounts {
  registrations: number;
  authorizations: number;
  codeExchanges: number;
  /** Every refresh_token grant request, granted or refused. */
  refreshes: number;
  /** 401 answers from /mcp. */
  unauthorized: number;
}

/** Start the server; `accessTtlS` sets the access-token lifetime, measured on `now`. */
export function startOAuthServer(opts: { accessTtlS?: number; now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  const counts: OAuthCounts = {
    registrations: 0,
    authorizations: 0,
    codeExchanges: 0,
    refreshes: 0,
    unauthorized: 0,
  };
  const codes = new Map<string, { challenge: string; clientId: string }>();
  const access = new Map<string, number>();
  const refresh = new Set<string>();
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const settings = { refuseRefresh: false, accessTtlS: opts.accessTtlS ?? 60, refreshDelayMs: 0 };
  const controller = new AbortController();
  let base = "";
  const issue = () => {
    const token = { access_token: `at-${crypto.randomUUID()}`, refresh_token: `rt-${crypto.randomUUID()}` };
    access.set(token.access_token, now() + settings.accessTtlS * 1000);
    refresh.add(token.refresh_token);
    return Response.json({ ...token, token_type: "Bearer", expires_in: settings.accessTtlS, scope: "mcp" });
  };
  const refuse = (error: string) => Response.json({ error }, { status: 400 });

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        return Response.json({
          resource: `${base}/mcp`,
          authorization_servers: [base],
          scopes_supported: ["mcp"],
        });
      }
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return Response.json({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      }
      if (url.pathname === "/register" && req.method === "POST") {
        counts.registrations++;
        const body = await req.json();
        return Response.json({ ...body, client_id: `client-${counts.registrations}` }, { status: 201 });
      }
      if (url.pathname === "/authorize") {
        counts.authorizations++;
        const code = `code-${crypto.randomUUID()}`;
        const q = url.searchParams;
        codes.set(code, { challenge: q.get("code_challenge") ?? "", clientId: q.get("client_id") ?? "" });
        const back = new URL(q.get("redirect_uri")!);
        back.searchParams.set("code", code);
        if (q.get("state")) back.searchParams.set("state", q.get("state")!);
        return Response.redirect(back, 302);
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = new URLSearchParams(await req.text());
        if (form.get("grant_type") === "authorization_code") {
          counts.codeExchanges++;
          const code = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          if (!code || code.challenge !== await s256(form.get("code_verifier") ?? "")) {
            return refuse("invalid_grant");
          }
          return issue();
        }
        if (form.get("grant_type") === "refresh_token") {
          counts.refreshes++;
          await new Promise((r) => setTimeout(r, settings.refreshDelayMs));
          const token = form.get("refresh_token") ?? "";
          if (settings.refuseRefresh || !refresh.delete(token)) return refuse("invalid_grant");
          return issue();
        }
        return refuse("unsupported_grant_type");
      }
      if (url.pathname === "/mcp") {
        const bearer = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
        if ((access.get(bearer) ?? 0) < now()) {
          counts.unauthorized++;
          return new Response(JSON.stringify({ error: "invalid_token" }), {
            status: 401,
            headers: {
              "content-type": "application/json",
              "www-authenticate":
                `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
            },
          });
        }
        const id = req.headers.get("mcp-session-id");
        let transport = id ? sessions.get(id) : undefined;
        if (!transport) {
          transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => crypto.randomUUID(),
            onsessioninitialized: (sid) => void sessions.set(sid, transport!),
          });
          await buildServer("oauth").connect(transport);
        }
        return await transport.handleRequest(req);
      }
      return new Response("not found", { status: 404 });
    },
  );
  base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return {
    url: `${base}/mcp`,
    counts,
    settings,
    /** Revoke every access token (the next request with one gets a 401). */
    revokeAccess() {
      access.clear();
    },
    async close() {
      for (const t of sessions.values()) await t.close();
      controller.abort();
      await server.finished;
    },
  };
}
