import { join } from "node:path";
import { assert, assertEquals, assertMatch, MAIN, runNavi, tempDir, writeConfig } from "../../../helpers.ts";
import { Pty } from "../../../support/pty.ts";

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("navi sandbox: enforced (bubblewrap <version>) with a fresh self-test; exit 1 when unavailable", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const r = await runNavi(["sandbox"], { home: home.path, cwd: ws.path });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /^sandbox: enforced \(bubblewrap \d+\.\d+\.\d+\)\n/);
  assertMatch(r.stdout, new RegExp(`hidden: ${home.path} \\(navi's home\\)`));
  assertMatch(r.stdout, /self-test \(\d+ ms\):\n/);
  assertEquals(r.stdout.match(/^ {2}ok {3}/gm)?.length, 7, r.stdout);
  assertMatch(
    r.stdout,
    /ok {3}the commands of one session share a private network \(loopback between them works\): both in/,
  );
  assertMatch(r.stdout, /ok {3}write outside the workspace fails: .*Read-only file system/);
  assertMatch(r.stdout, /ok {3}Unix socket connect fails: socket: Operation not permitted/);
  const json = await runNavi(["sandbox", "--json"], { home: home.path, cwd: ws.path });
  const status = JSON.parse(json.stdout);
  assertEquals([status.state, status.cached, status.checks.length], ["enforced", false, 7]);
  const missing = await runNavi(["sandbox"], {
    home: home.path,
    cwd: ws.path,
    env: { NAVI_BWRAP: "/no/bwrap" },
  });
  assertEquals(missing.code, 1);
  assertMatch(missing.stdout, /^sandbox: unavailable: bubblewrap not found at \/no\/bwrap \(NAVI_BWRAP\)\n/);
  assertMatch(missing.stdout, /apt-get install bubblewrap/);
});

Deno.test("navi sandbox with mode off says so; --version and navi tools run no self-test", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { sandbox: { mode: "off" } });
  const off = await runNavi(["sandbox"], { home: home.path });
  assertEquals(off.code, 0);
  assertEquals(off.stdout, `sandbox: off (sandbox.mode is "off")\n`);
  await using fresh = await tempDir();
  for (const args of [["--version"], ["tools", "--json"]]) {
    const r = await runNavi(args, { home: fresh.path });
    assertEquals(r.code, 0, r.stderr);
  }
  assert(!await exists(join(fresh.path, "cache")), "no self-test ran, nothing was cached");
  await runNavi(["sandbox"], { home: fresh.path });
  assert(await exists(join(fresh.path, "cache", "sandbox.json")), "the self-test's result is cached");
});

Deno.test("config: sandbox keys are validated with one line naming the field", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, { sandbox: { mode: "on" } });
  const r = await runNavi(["sandbox"], { home: home.path });
  assertEquals(r.code, 2);
  assertMatch(r.stderr, /config\.json: sandbox\.mode: Invalid option: expected one of "auto"\|"off"/);
});

Deno.test("the REPL banner says when bash runs unsandboxed (under a real terminal)", async () => {
  await using home = await tempDir();
  await writeConfig(home.path, {
    providers: { l: { base_url: "http://127.0.0.1:9/v1", api_key: "k" } },
    model: "m",
  });
  await using pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN], {
    env: { NAVI_HOME: home.path, NAVI_BWRAP: "/no/bwrap", NO_COLOR: "1" },
    cwd: home.path,
    height: 20,
  });
  const screen = await pty.waitFor("bash is disabled", 20_000);
  assertMatch(screen, /navi \S+ · .* · approval ask/);
  assertMatch(screen, /warning: bash is disabled: no working sandbox \(bubblewrap not found at \/no\/bwrap/);
});
