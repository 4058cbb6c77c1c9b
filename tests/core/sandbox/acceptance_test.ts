// The sandbox as a user meets it: bash commands through `navi -p --approval auto` with the scripted model.
import { join } from "node:path";
import { assert, assertEquals, assertMatch, tempDir } from "../../helpers.ts";
import { bashThroughNavi, dirOutsideTmp } from "./support.ts";

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("sandboxed bash: touch $HOME/x fails, touch ./x succeeds, /tmp is private", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using fakeHome = await dirOutsideTmp();
  const marker = `navi-tmp-${crypto.randomUUID()}`;
  const { outcomes, result } = await bashThroughNavi(
    () => ["touch $HOME/x", "touch ./x", `echo hi > /tmp/${marker} && cat /tmp/${marker}`],
    { home: home.path, ws: ws.path, env: { HOME: fakeHome.path } },
  );
  assertEquals(result.code, 0, result.stderr);
  assertEquals(outcomes.length, 3);
  assert(!outcomes[0].ok);
  assertMatch(outcomes[0].output!, /x': Read-only file system/);
  assert(!await exists(join(fakeHome.path, "x")), "nothing landed in $HOME");
  assert(outcomes[1].ok, JSON.stringify(outcomes[1]));
  assert(await exists(join(ws.path, "x")), "the workspace file exists on the host");
  assert(outcomes[2].ok && outcomes[2].output === "hi\n", JSON.stringify(outcomes[2]));
  assert(!await exists(`/tmp/${marker}`), "the private /tmp is not the host's /tmp");
});

Deno.test("sandboxed bash: .git/hooks and .git/config are read-only, .git cannot be swapped", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await new Deno.Command("git", { args: ["init", "-q", ws.path] }).output();
  const config = await Deno.readTextFile(join(ws.path, ".git/config"));
  const { outcomes } = await bashThroughNavi(() => [
    "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit",
    "echo '[core] fsmonitor = evil' >> .git/config",
    "mv .git .git-old && mkdir -p .git/hooks",
    "echo ../evil > .git/commondir",
    "echo data > .git/description-copy && git status --short",
  ], { home: home.path, ws: ws.path });
  assertEquals(outcomes.length, 5);
  assertMatch(outcomes[0].output!, /pre-commit: Read-only file system/);
  assertMatch(outcomes[1].output!, /config: Read-only file system/);
  assertMatch(outcomes[2].output!, /Device or resource busy/);
  assert(outcomes.slice(0, 3).every((o) => !o.ok));
  assert(outcomes[3].ok);
  assertMatch(outcomes[3].output!, /navi removed \.git\/commondir/);
  assert(outcomes[4].ok, "the rest of .git stays writable: git works");
  assert(!await exists(join(ws.path, ".git/hooks/pre-commit")));
  assert(!await exists(join(ws.path, ".git/commondir")));
  assert(!await exists(join(ws.path, ".git-old")));
  assertEquals(await Deno.readTextFile(join(ws.path, ".git/config")), config);
});

function tcpServer(): { port: number; accepted: () => number } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  const loop = (async () => {
    try {
      for await (const conn of listener) {
        accepted++;
        await conn.write(new TextEncoder().encode("hello from outside\n")).catch(() => {});
        conn.close();
      }
    } catch { /* closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    accepted: () => accepted,
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop;
    },
  };
}

Deno.test("sandboxed bash: a TCP connect to 127.0.0.1 fails by default and works with network: true", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using server = tcpServer();
  const connect = `timeout 5 bash -c "cat < /dev/tcp/127.0.0.1/${server.port}"`;
  const closed = await bashThroughNavi(() => [connect], { home: home.path, ws: ws.path });
  assert(!closed.outcomes[0].ok);
  assertMatch(closed.outcomes[0].output!, /Connection refused/);
  assertEquals(server.accepted(), 0);
  const open = await bashThroughNavi(() => [connect], {
    home: home.path,
    ws: ws.path,
    sandbox: { network: true },
  });
  assertEquals(open.outcomes[0].output, "hello from outside\n");
  assertEquals(server.accepted(), 1);
});

Deno.test("sandboxed bash: network_commands give network to matching command lines only", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await using server = tcpServer();
  const connect = `timeout 5 bash -c "cat < /dev/tcp/127.0.0.1/${server.port}"`;
  const { outcomes } = await bashThroughNavi(() => [connect, `true && ${connect}`], {
    home: home.path,
    ws: ws.path,
    sandbox: { network_commands: ["timeout 5 bash -c *"] },
  });
  assertEquals(outcomes[0].output, "hello from outside\n");
  assert(!outcomes[1].ok, "`true` does not match, so the line gets no network");
  assertEquals(server.accepted(), 1);
});

Deno.test("sandboxed bash: navi's /proc/<pid>/environ and navi's home are out of reach", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const secret = `env-marker-${crypto.randomUUID()}`;
  const { outcomes, pid } = await bashThroughNavi(
    (naviPid) => [`cat /proc/${naviPid}/environ`, `cat ${home.path}/config.json`],
    { home: home.path, ws: ws.path, env: { NAVI_TEST_MARKER: secret } },
  );
  const outside = await Deno.readTextFile(`/proc/${Deno.pid}/environ`).catch(() => "");
  assert(outside.length > 0, "outside the sandbox /proc/<pid>/environ is readable, so the check can fail");
  assert(pid > 0);
  assert(!outcomes[0].ok);
  assertMatch(outcomes[0].output!, new RegExp(`/proc/${pid}/environ: No such file or directory`));
  assert(!outcomes[0].output!.includes(secret));
  assert(!outcomes[1].ok);
  assertMatch(outcomes[1].output!, /config\.json: No such file or directory/);
});

Deno.test("without bubblewrap bash refuses with one line and runs nothing; mode off runs unconfined", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const env = { NAVI_BWRAP: "/nonexistent/bwrap" };
  const refused = await bashThroughNavi(() => ["touch ./ran"], { home: home.path, ws: ws.path, env });
  assertEquals(refused.outcomes.length, 1);
  const error = refused.outcomes[0].error!;
  assertMatch(error, /^bash is disabled: no working sandbox \(bubblewrap not found at \/nonexistent\/bwrap/);
  assertMatch(error, /apt-get install bubblewrap/);
  assertMatch(error, /"sandbox": \{ "mode": "off" \}/);
  assert(!error.includes("\n"));
  assert(!await exists(join(ws.path, "ran")));
  const off = await bashThroughNavi(() => ["touch ./ran && readlink /proc/self/ns/pid"], {
    home: home.path,
    ws: ws.path,
    env,
    sandbox: { mode: "off" },
  });
  assert(off.outcomes[0].ok);
  assertEquals(off.outcomes[0].output!.trim(), await Deno.readLink("/proc/self/ns/pid"));
  assert(await exists(join(ws.path, "ran")));
});

Deno.test("sandbox.auto_allow lets ask mode run bash while the sandbox is enforced; deny rules still apply", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const ask = { home: home.path, ws: ws.path, approval: null };
  const plain = await bashThroughNavi(() => ["touch a"], ask);
  assertMatch(plain.outcomes[0].error!, /^Not approved: bash needs approval/);
  const allowed = await bashThroughNavi(() => ["touch a", "rm -f a"], {
    ...ask,
    sandbox: { auto_allow: true },
    extra: { approval: { deny: ["bash(rm *)"] } },
  });
  assert(allowed.outcomes[0].ok);
  assertMatch(allowed.outcomes[1].error!, /^Denied: bash is blocked by a deny rule/);
  assert(await exists(join(ws.path, "a")));
  const unavailable = await bashThroughNavi(() => ["touch b"], {
    ...ask,
    sandbox: { auto_allow: true },
    env: { NAVI_BWRAP: "/nonexistent/bwrap" },
  });
  assertMatch(unavailable.outcomes[0].error!, /^Not approved/, "no sandbox, so the question stays");
});

Deno.test("sandboxed bash: core.hooksPath (husky's .husky/_) and include.path files in the workspace are guarded", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  await new Deno.Command("git", { args: ["init", "-q", ws.path] }).output();
  await Deno.mkdir(join(ws.path, ".husky/_"), { recursive: true });
  await Deno.writeTextFile(join(ws.path, "shared.gitconfig"), "[user]\n\tname = x\n");
  await Deno.writeTextFile(
    join(ws.path, ".git/config"),
    '[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../shared.gitconfig\n[includeIf "onbranch:x"]\n' +
      "\tpath = ../later.gitconfig\n",
    { append: true },
  );
  const { outcomes } = await bashThroughNavi(() => [
    "echo 'echo pwned' > .husky/_/pre-commit",
    "mv .husky .husky-old",
    "echo '[core] fsmonitor = evil' >> shared.gitconfig",
    "echo '[core] fsmonitor = evil' > later.gitconfig",
    "echo fine > .husky/README",
  ], { home: home.path, ws: ws.path });
  assertMatch(outcomes[0].output!, /pre-commit: Read-only file system/);
  assertMatch(outcomes[1].output!, /Device or resource busy/);
  assertMatch(outcomes[2].output!, /shared\.gitconfig: Read-only file system/);
  assert(outcomes[3].ok);
  assertMatch(outcomes[3].output!, /navi removed later\.gitconfig, which the command created/);
  assert(outcomes[4].ok, "the rest of the workspace stays writable");
  assert(!await exists(join(ws.path, "later.gitconfig")));
  assert(!await exists(join(ws.path, ".husky/_/pre-commit")));
});
