import { join } from "node:path";
import { startLlmServer } from "../../../support/llm_server.ts";
import { startOAuthServer } from "../../../support/oauth_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../../helpers.ts";

/** A $BROWSER that does what a browser would: load the URL and follow the redirect back to navi. */
async function fakeBrowser(dir: string): Promise<string> {
  const path = join(dir, "browser.sh");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec '${Deno.execPath()}' eval 'await (await fetch(Deno.args[0])).body?.cancel()' "$1"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

async function loggedIn(accessTtlS: number) {
  const clock = { aheadMs: 0 };
  const as = startOAuthServer({ accessTtlS, now: () => Date.now() + clock.aheadMs });
  const home = await tempDir();
  await writeConfig(home.path, { mcp_servers: { web: { url: as.url } } });
  const login = await runNavi(["mcp", "login", "web"], {
    home: home.path,
    env: { BROWSER: await fakeBrowser(home.path) },
  });
  const store = join(home.path, "auth", "mcp-web.json");
  return {
    as,
    home: home.path,
    login,
    store,
    tokens: async () => JSON.parse(await Deno.readTextFile(store)).tokens,
    /** Let `ms` pass for the tokens without waiting: the server's clock runs ahead, the stored times go back. */
    async age(ms: number) {
      clock.aheadMs += ms;
      const data = JSON.parse(await Deno.readTextFile(store));
      for (const key of ["issued_at", "expires_at"]) if (data.tokens[key]) data.tokens[key] -= ms;
      await Deno.writeTextFile(store, JSON.stringify(data, null, 2) + "\n");
    },
    async [Symbol.asyncDispose]() {
      await as.close();
      await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test("navi mcp login opens $BROWSER, stores the tokens 0600 and never prints them", async () => {
  await using t = await loggedIn(60);
  assertEquals(t.login.code, 0, t.login.stderr);
  assertMatch(t.login.stdout, /^logged in to web \(\d+ tools\)/);
  assertMatch(
    t.login.stderr,
    /Log in to web in your browser\. If none opens, open this URL:\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
  );
  const tokens = await t.tokens();
  for (const secret of [tokens.access_token, tokens.refresh_token]) {
    assert(!t.login.stdout.includes(secret) && !t.login.stderr.includes(secret), "no token printed");
  }
  assertEquals((await Deno.stat(t.store)).mode! & 0o777, 0o600);
  const list = await runNavi(["mcp", "list"], { home: t.home });
  assertEquals(list.code, 0, list.stdout + list.stderr);
  assertMatch(list.stdout, /web\s+http\s+connected/);
});

Deno.test(
  "five navi processes started past expiry make exactly one refresh request, all connect, the store survives",
  async () => {
    await using t = await loggedIn(1);
    assertEquals(t.login.code, 0, t.login.stderr);
    t.as.settings.accessTtlS = 60;
    // A slow token endpoint keeps the first refresh in flight until every process has read the expired token.
    t.as.settings.refreshDelayMs = 4000;
    await t.age(1200);
    const before = await t.tokens();
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => runNavi(["mcp", "list"], { home: t.home })),
    );
    for (const r of runs) {
      assertEquals(r.code, 0, r.stdout + r.stderr);
      assertMatch(r.stdout, /web\s+http\s+connected/);
    }
    assertEquals(t.as.counts.refreshes, 1);
    assertEquals(
      t.as.counts.unauthorized,
      1,
      "only the login's first request went out without a valid token",
    );
    const after = await t.tokens();
    assert(
      after.refresh_token && after.refresh_token !== before.refresh_token,
      "the rotated token is stored",
    );
    assert(after.access_token !== before.access_token);
  },
);

Deno.test("a token in a tool result is redacted from the model request, the session and the output", async () => {
  await using t = await loggedIn(60);
  const llm = startLlmServer([
    { toolCalls: [{ name: "mcp__web__auth_header", arguments: "{}" }] },
    { text: "done" },
  ]);
  try {
    await writeConfig(t.home, llmConfig(llm.url, { mcp_servers: { web: { url: t.as.url } } }));
    const r = await runNavi(["-p", "show the header", "--approval", "auto"], { home: t.home });
    assertEquals(r.code, 0, r.stderr);
    const { access_token } = await t.tokens();
    const tool = (llm.requests[1].body.messages as { role: string; content: string }[]).at(-1)!;
    assertEquals(JSON.parse(tool.content), { ok: true, output: "Bearer [redacted]" });
    const sessions = join(t.home, "sessions");
    for (const f of Deno.readDirSync(sessions)) {
      assert(!Deno.readTextFileSync(join(sessions, f.name)).includes(access_token), "not in the session");
    }
    assert(!r.stdout.includes(access_token) && !r.stderr.includes(access_token));
  } finally {
    await llm.close();
  }
});

Deno.test("logout forgets the tokens; then -p warns with the login command and still answers", async () => {
  await using t = await loggedIn(60);
  const out = await runNavi(["mcp", "logout", "web"], { home: t.home });
  assertEquals([out.code, out.stdout], [0, "logged out of web\n"]);
  assertEquals(await Deno.stat(t.store).then(() => true, () => false), false);
  const list = await runNavi(["mcp", "list"], { home: t.home });
  assertEquals(list.code, 1, "a failed server makes mcp list exit 1");
  assertMatch(list.stdout, /web\s+http\s+failed\s+0\s+needs a login: run `navi mcp login web`/);
  const llm = startLlmServer([{ text: "answered anyway" }]);
  try {
    await writeConfig(t.home, llmConfig(llm.url, { mcp_servers: { web: { url: t.as.url } } }));
    const r = await runNavi(["-p", "hi"], { home: t.home });
    assertEquals([r.code, r.stdout], [0, "answered anyway\n"]);
    assertMatch(r.stderr, /navi: warning: MCP server web failed: needs a login: run `navi mcp login web`/);
  } finally {
    await llm.close();
  }
});

Deno.test("a login nobody completes times out; a stdio server cannot log in", async () => {
  await using home = await tempDir();
  const as = startOAuthServer();
  try {
    await writeConfig(home.path, {
      mcp_servers: { web: { url: as.url }, local: { command: "true" } },
    });
    const r = await runNavi(["mcp", "login", "web", "--timeout", "1"], {
      home: home.path,
      env: { BROWSER: "true" },
    });
    assertEquals(r.code, 1);
    assertMatch(r.stderr, /open this URL:\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    assertMatch(r.stderr, /navi: no login within 1 s\n$/);
    const s = await runNavi(["mcp", "login", "local"], { home: home.path });
    assertEquals([s.code, s.stderr], [1, "navi: local is a stdio server; only url servers log in\n"]);
  } finally {
    await as.close();
  }
});
