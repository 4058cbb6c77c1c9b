// The Sandbox object: the self-test (and that it catches a sandbox that does not confine), its cache, and
// the bash tool running inside it (timeouts, Unix sockets, extra writable paths).
import { join } from "node:path";
import { Sandbox } from "../../../core/mod.ts";
import bash from "../../../tools/bash.ts";
import { assert, assertEquals, assertMatch, tempDir, toolContext } from "../../helpers.ts";
import { dirOutsideTmp } from "./support.ts";

function env(vars: Record<string, string | undefined>) {
  const all = { PATH: Deno.env.get("PATH"), HOME: Deno.env.get("HOME"), ...vars };
  return { get: (k: string) => all[k as keyof typeof all] };
}

Deno.test("the self-test passes, is cached for the same binary and kernel, and runs again for another", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const first = await new Sandbox({ home: home.path, workspace: ws.path, env: env({}) }).status();
  assertEquals(first.state, "enforced");
  assertMatch(first.summary, /^enforced \(bubblewrap \d+\.\d+\.\d+\)$/);
  assertEquals(first.cached, false);
  assertEquals(first.checks.map((c) => c.ok), [true, true, true, true, true, true, true]);
  assertMatch(first.checks[1].detail, /Read-only file system/);
  const shared = first.checks.at(-1)!;
  assertMatch(shared.name, /commands of one session share a private network/);
  assertMatch(shared.detail, /^both in net:\[\d+\]$/);
  assert(shared.detail !== `both in ${await Deno.readLink("/proc/self/ns/net")}`, "not navi's own network");
  assertEquals(shared.optional, true);
  const again = await new Sandbox({ home: home.path, workspace: ws.path, env: env({}) }).status();
  assertEquals({ ...again, cached: false }, first);
  assertEquals(again.cached, true);
  const copy = join(home.path, "bwrap-copy");
  await Deno.copyFile(first.binary!, copy);
  await Deno.chmod(copy, 0o755);
  const other = await new Sandbox({ home: home.path, workspace: ws.path, env: env({ NAVI_BWRAP: copy }) })
    .status();
  assertEquals([other.state, other.cached, other.binary], ["enforced", false, copy]);
});

Deno.test("a sandbox binary that does not confine fails the self-test, and bash refuses", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using outside = await dirOutsideTmp();
  const fake = join(home.path, "fake-bwrap");
  await Deno.writeTextFile(
    fake,
    '#!/bin/sh\nwhile [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n',
  );
  await Deno.chmod(fake, 0o755);
  const sandbox = new Sandbox({
    home: home.path,
    workspace: ws.path,
    env: env({ NAVI_BWRAP: fake, HOME: outside.path }),
  });
  const status = await sandbox.status();
  assertEquals(status.state, "unavailable");
  assertMatch(status.reason!, /^self-test: write outside the workspace fails: no/);
  assertEquals([...Deno.readDirSync(outside.path)], [], "the probe that landed was removed");
  const r = await bash.run({ command: "touch ran" }, { ...toolContext(ws.path), sandbox });
  assert(!r.ok);
  assertMatch(r.error, /^bash is disabled: no working sandbox \(self-test: /);
  assertEquals([...Deno.readDirSync(ws.path)], []);
});

Deno.test("sandboxed bash: the timeout kills every process of the command", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const sandbox = new Sandbox({ home: home.path, workspace: ws.path, env: env({}) });
  const marker = `21.${Math.floor(Math.random() * 1e6)}`;
  const r = await bash.run(
    { command: `sleep ${marker} & sleep ${marker}; echo never`, timeout_ms: 500 },
    { ...toolContext(ws.path), sandbox },
  );
  assert(!r.ok);
  assertMatch(r.error, /timed out after 500 ms/);
  const ps = await new Deno.Command("pgrep", { args: ["-f", `sleep ${marker}`], stdout: "piped" }).output();
  assertEquals(new TextDecoder().decode(ps.stdout).trim(), "", "no process of the command survives");
});

Deno.test("sandboxed bash: Unix sockets are blocked without network and usable with it", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const path = join(ws.path, "agent.sock");
  const listener = Deno.listen({ transport: "unix", path });
  const served = (async () => {
    for await (const conn of listener) {
      await conn.write(new TextEncoder().encode("hi\n")).catch(() => {});
      conn.close();
    }
  })().catch(() => {});
  const connect = `perl -e 'use Socket; socket(S, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!\\n"; ` +
    `connect(S, pack_sockaddr_un("${path}")) or die "connect: $!\\n"; print scalar <S>'`;
  try {
    const closed = new Sandbox({ home: home.path, workspace: ws.path, env: env({}) });
    const r1 = await bash.run({ command: connect }, { ...toolContext(ws.path), sandbox: closed });
    assert(!r1.ok);
    assertEquals(r1.output, "socket: Operation not permitted\n");
    const open = new Sandbox({
      home: home.path,
      workspace: ws.path,
      settings: { network: true },
      env: env({}),
    });
    const r2 = await bash.run({ command: connect }, { ...toolContext(ws.path), sandbox: open });
    assertEquals(r2.output, "hi\n");
  } finally {
    listener.close();
    await served;
  }
});

Deno.test("sandbox.writable adds directories (~/ and relative paths); missing ones are reported", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using extra = await dirOutsideTmp();
  await Deno.mkdir(join(extra.path, "cache"));
  const sandbox = new Sandbox({
    home: home.path,
    workspace: ws.path,
    settings: { writable: ["~/cache", "../does-not-exist"] },
    env: env({ HOME: extra.path }),
  });
  const paths = await sandbox.paths();
  assertEquals(paths.writable, [join(extra.path, "cache")]);
  assertEquals(paths.missing, [join(ws.path, "../does-not-exist")]);
  assertEquals(paths.hidden, [home.path]);
  const r = await bash.run(
    { command: `touch ${extra.path}/cache/ok && touch ${extra.path}/not-ok` },
    { ...toolContext(ws.path), sandbox },
  );
  assert(!r.ok);
  assertMatch(r.output as string, /not-ok': Read-only file system/);
  assert(Deno.statSync(join(extra.path, "cache/ok")).isFile);
});

Deno.test("the sandbox warns when bash is unconfined (mode off) or refused, and not when enforced", async () => {
  await using home = await tempDir();
  const off = new Sandbox({ home: home.path, workspace: home.path, settings: { mode: "off" }, env: env({}) });
  assertEquals(await off.warning(), `warning: bash runs without a sandbox (sandbox.mode is "off")`);
  assertEquals(await off.autoAllows(), false);
  const refused = new Sandbox({
    home: home.path,
    workspace: home.path,
    env: env({ NAVI_BWRAP: "/no/bwrap" }),
  });
  assertMatch((await refused.warning())!, /^warning: bash is disabled: no working sandbox/);
  const enforced = new Sandbox({
    home: home.path,
    workspace: home.path,
    settings: { auto_allow: true },
    env: env({}),
  });
  assertEquals(await enforced.warning(), undefined);
  assertEquals(await enforced.autoAllows(), true);
});

Deno.test("two commands of one session share a network namespace, not navi's and not another session's", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const sandbox = new Sandbox({ home: home.path, workspace: ws.path, env: env({}) });
  const [a, b] = [sandbox.session(), sandbox.session()];
  const netns = async (s: typeof a) => {
    const r = await bash.run({ command: "readlink /proc/self/ns/net" }, {
      ...toolContext(ws.path),
      sandbox: s,
    });
    assert(r.ok, JSON.stringify(r));
    return (r.output as string).trim();
  };
  try {
    const [a1, a2, b1] = [await netns(a), await netns(a), await netns(b)];
    assertMatch(a1, /^net:\[\d+\]$/);
    assertEquals(a2, a1, "the same session: the same namespace");
    assert(b1 !== a1, "another session has its own");
    assert(a1 !== await Deno.readLink("/proc/self/ns/net"), "not navi's network");
    const own = await bash.run({ command: "readlink /proc/self/ns/net" }, {
      ...toolContext(ws.path),
      sandbox,
    });
    assert(![a1, b1].includes((own.output as string).trim()), "outside a session each command has its own");
  } finally {
    await a.close();
    await b.close();
  }
  const after = await bash.run({ command: "true" }, { ...toolContext(ws.path), sandbox: a });
  assertMatch(String(after.error), /the session has ended/);
});

Deno.test("without nsenter the sandbox stays enforced; the shared network is reported missing, not faked", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using bin = await dirOutsideTmp();
  for (const dir of ["/usr/bin", "/bin"]) {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name === "nsenter") continue;
      await Deno.symlink(join(dir, e.name), join(bin.path, e.name)).catch(() => {});
    }
  }
  const sandbox = new Sandbox({ home: home.path, workspace: ws.path, env: env({ PATH: bin.path }) });
  const status = await sandbox.status();
  assertEquals(status.state, "enforced");
  const shared = status.checks.at(-1)!;
  assertEquals([shared.ok, shared.optional], [false, true]);
  assertMatch(shared.detail, /nsenter \(util-linux\) not found: each command has a loopback of its own/);
  const session = sandbox.session();
  try {
    const r = await bash.run({ command: "true" }, { ...toolContext(ws.path), sandbox: session });
    assert(r.ok);
    assertMatch(r.output as string, /a network of its own \(nsenter \(util-linux\) not found\)/);
  } finally {
    await session.close();
  }
});
