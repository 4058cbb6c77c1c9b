import { join } from "node:path";
import { ToolRegistry } from "../../../core/mod.ts";
import { McpManager } from "../../../core/mcp/manager.ts";
import { type OpenUrl } from "../../../core/mcp/mod.ts";
import { TokenStore } from "../../../core/mcp/oauth_store.ts";
import { startOAuthServer } from "../../support/oauth_server.ts";
import { FakeClock } from "../../support/clock.ts";
import { assert, assertEquals, assertMatch, tempDir, toolContext, until } from "../../helpers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** What a browser does with the authorization URL: load it and follow the redirect back to navi. */
const browser: OpenUrl = async (url) => {
  const res = await fetch(url);
  await res.body?.cancel();
};

/** The server and navi keep time with one fake clock: token lifetimes pass when a test advances it. */
async function setup(accessTtlS = 60) {
  const clock = new FakeClock();
  const as = startOAuthServer({ accessTtlS, now: clock.now });
  const home = await tempDir();
  const registry = new ToolRegistry();
  const secrets: string[] = [];
  const m = new McpManager(registry, { web: { url: as.url } }, {
    home: home.path,
    workspace: home.path,
    version: "test",
    env: Deno.env,
    onSecret: (v) => secrets.push(v),
    timing: { maxReconnects: 0 },
    clock,
  });
  return {
    as,
    clock,
    m,
    home: home.path,
    secrets,
    store: () => new TokenStore(home.path, { name: "web", url: as.url }),
    call: (name: string, args: Record<string, unknown> = {}) =>
      registry.invoke(name, JSON.stringify(args), toolContext(home.path)),
    async [Symbol.asyncDispose]() {
      await m.close();
      await as.close();
      await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test(
  "without a login a server that needs one fails naming the command, and registers no client",
  opts,
  async () => {
    await using t = await setup();
    await t.m.start();
    const s = t.m.states()[0];
    assertEquals(s.status, "failed");
    assertMatch(s.error!, /needs a login: run `navi mcp login web`/);
    assertEquals(t.as.counts.registrations, 0, "no dynamic registration without a login");
    assertEquals(t.as.counts.authorizations, 0);
  },
);

Deno.test(
  "login: discovery, registration and PKCE; tokens stored with mode 0600 and reported as secrets",
  opts,
  async () => {
    await using t = await setup();
    await t.m.login("web", { openUrl: browser });
    assertEquals(t.m.states()[0].status, "connected");
    assertEquals(await t.call("mcp__web__echo", { message: "hi" }), { ok: true, output: "echo: hi" });
    assertEquals(t.as.counts, {
      registrations: 1,
      authorizations: 1,
      codeExchanges: 1,
      refreshes: 0,
      unauthorized: 1,
    });
    const stored = t.store().read();
    assert(stored.tokens?.access_token && stored.tokens.refresh_token, "tokens stored");
    assertEquals((await Deno.stat(t.store().path)).mode! & 0o777, 0o600);
    assertEquals((await Deno.stat(join(t.home, "auth"))).mode! & 0o777, 0o700);
    assert(
      t.secrets.includes(stored.tokens.access_token) && t.secrets.includes(stored.tokens.refresh_token!),
    );
  },
);

Deno.test("a token about to expire is refreshed before the request goes out (no 401)", opts, async () => {
  await using t = await setup(1);
  await t.m.login("web", { openUrl: browser });
  const before = { ...t.as.counts };
  t.clock.advance(1100);
  assertEquals(await t.call("mcp__web__echo", { message: "later" }), { ok: true, output: "echo: later" });
  assertEquals(t.as.counts.refreshes, before.refreshes + 1);
  assertEquals(t.as.counts.unauthorized, before.unauthorized, "the expired token was never sent");
});

Deno.test("a 401 mid-session gets one silent refresh and one retry", opts, async () => {
  await using t = await setup();
  await t.m.login("web", { openUrl: browser });
  const old = t.store().read().tokens!;
  t.as.revokeAccess();
  assertEquals(await t.call("mcp__web__echo", { message: "again" }), { ok: true, output: "echo: again" });
  assertEquals(t.as.counts.refreshes, 1);
  const now = t.store().read().tokens!;
  assert(
    now.access_token !== old.access_token && now.refresh_token !== old.refresh_token,
    "rotated and saved",
  );
});

Deno.test(
  "a refused refresh keeps the store as it was and the error names the login command",
  opts,
  async () => {
    await using t = await setup();
    await t.m.login("web", { openUrl: browser });
    const before = await Deno.readTextFile(t.store().path);
    t.as.revokeAccess();
    t.as.settings.refuseRefresh = true;
    const r = await t.call("mcp__web__echo", { message: "x" });
    assert(!r.ok);
    assertMatch(
      r.error,
      /needs a login \(refreshing its token failed: .*invalid_grant.*\): run `navi mcp login web`/i,
    );
    assertEquals(await Deno.readTextFile(t.store().path), before, "the store is untouched");
    assertEquals(t.as.counts.refreshes, 1, "the refused refresh token is not sent again");
    const again = await t.call("mcp__web__echo", { message: "y" });
    assert(!again.ok);
    assertEquals(t.as.counts.refreshes, 1);
  },
);

Deno.test("a login whose browser never comes back times out with a clear error", opts, async () => {
  await using t = await setup();
  let shown = "";
  const login = t.m.login("web", { openUrl: (url) => void (shown = url.href), timeoutMs: 300 }).then(
    () => undefined,
    (e: Error) => e,
  );
  await until(() => shown !== "", 5000, "the browser step");
  t.clock.advance(300);
  const err = await login;
  assertMatch(err?.message ?? "", /^no login within 0\.3 s$/);
  assertMatch(shown, /\/authorize\?.*code_challenge_method=S256/);
  await until(() => t.m.states()[0].status === "failed");
});
