// Background shells as a user meets them: `navi -p` with the scripted model starts a small HTTP server in
// the background, queries it with curl in the next step (in the sandbox, without outside network), reads
// its log with bash_output and stops it with kill_shell; a shell still running when -p ends is stopped; a
// navi killed with SIGKILL leaves nothing running once the next navi has started.
import { join } from "node:path";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  keyedLlmConfig,
  llmConfig,
  MAIN,
  runNavi,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";
import { marked, processesNamed, processesWith } from "./support.ts";

type Call = { name: string; args: Record<string, unknown> };
type Outcome = Record<string, unknown> & { ok: boolean };

const call = (name: string, args: Record<string, unknown>): Step => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

/** Start `navi -p` against `script` (no wait); `done()` collects its result and the tool results. */
async function startNavi(
  script: Step[] | ((i: number) => Step),
  run: {
    home: string;
    ws: string;
    env?: Record<string, string>;
    config: (url: string) => Record<string, unknown>;
  },
) {
  const server = startLlmServer(script);
  await writeConfig(run.home, run.config(server.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "-p", "go", "--approval", "auto"],
    cwd: run.ws,
    env: { NAVI_HOME: run.home, NO_COLOR: "1", ...run.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return {
    server,
    child,
    async done() {
      try {
        const out = await child.output();
        const last = server.requests.at(-1)?.body.messages as { role: string; content: string }[] | undefined;
        const outcomes = (last ?? []).filter((m) => m.role === "tool").map((m) =>
          JSON.parse(m.content) as Outcome
        );
        const dec = new TextDecoder();
        return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr), outcomes };
      } finally {
        clearTimeout(timer);
        await server.close();
      }
    },
  };
}

const SERVER = `import http from "node:http";
const port = Number(process.argv[2]);
http.createServer((req, res) => {
  console.log(req.method + " " + req.url);
  console.log("served " + req.url);
  res.end("hello from the background\\n");
}).listen(port, "127.0.0.1", () => console.log("listening on " + port));
`;

/** node when it is installed, else deno (the one running the tests). */
function serverCommand(port: number, marker: string): string {
  const node = new Deno.Command("sh", { args: ["-c", "command -v node"], stdout: "piped" }).outputSync();
  const runtime = node.success ? "node" : `${Deno.execPath()} run --allow-net`;
  return `${runtime} server.mjs ${port} ${marker}`;
}

const records = (home: string) => {
  try {
    return [...Deno.readDirSync(join(home, "shells"))].length;
  } catch {
    return 0;
  }
};

Deno.test("a background HTTP server answers curl in the next step (sandboxed, no outside network), logs, stops", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const key = `sk-bg-${crypto.randomUUID()}`;
  const marker = `navi-bg-${crypto.randomUUID().slice(0, 8)}`;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  await Deno.writeTextFile(join(ws.path, "server.mjs"), SERVER);
  const curl =
    `for i in $(seq 1 100); do curl -s http://127.0.0.1:${port}/ping && exit 0; sleep 0.1; done; exit 1`;
  const steps = [
    call("bash", { command: `echo token ${key}; ${serverCommand(port, marker)}`, run_in_background: true }),
    call("bash", { command: curl }),
    call("bash_output", { id: "shell_1", filter: "^GET" }),
    call("kill_shell", { id: "shell_1" }),
    { text: "done" },
  ];
  let fromOutside: Promise<string> | undefined;
  const navi = await startNavi((i) => {
    // While the server runs, navi's own network (the host's) cannot reach it: it lives in the session's.
    if (i === 2) {
      fromOutside = Deno.connect({ hostname: "127.0.0.1", port }).then(
        (c) => (c.close(), "connected"),
        (e) => e.name,
      );
    }
    return steps[i];
  }, { home: home.path, ws: ws.path, env: { TEST_LLM_KEY: key }, config: keyedLlmConfig });
  const { code, stderr, outcomes } = await navi.done();
  assertEquals(await fromOutside, "ConnectionRefused");
  assertEquals(code, 0, stderr);
  const [started, curled, read, killed] = outcomes;
  assertEquals(
    [started.ok, started.shell_id, started.status],
    [true, "shell_1", "running"],
    JSON.stringify(started),
  );
  assertMatch(String(started.output), /token \[redacted\]/);
  assert(!JSON.stringify(outcomes).includes(key), "the key never reaches the model");
  assertEquals(curled.output, "hello from the background\n", JSON.stringify(curled));
  assertEquals([read.status, read.output], ["running", "GET /ping\n"], JSON.stringify(read));
  assertMatch(String(read.note), /line\(s\) did not match the filter/);
  assertEquals(killed.status, "killed", JSON.stringify(killed));
  assertEquals(processesNamed(marker), [], "the server is gone");
  const log = await Deno.readTextFile(String(read.log));
  assert(String(read.log).startsWith(join(home.path, "sessions")), "the log is in the session's folder");
  assertMatch(log, /token \[redacted\]\n(listening on \d+\n)?GET \/ping\nserved \/ping\n/);
  assert(!log.includes(key));
  assertEquals(records(home.path), 0);
});

Deno.test("a background shell still running when -p ends is stopped, sandboxed or not", async () => {
  for (const sandbox of [{}, { mode: "off" }]) {
    await using home = await tempDir();
    await using ws = await tempDir();
    const marker = `navi-bg-${crypto.randomUUID().slice(0, 8)}`;
    let seen = 0;
    const server = startLlmServer((i) => {
      if (i === 1) seen = processesWith(marker).length;
      return i === 0 ? call("bash", { command: marked(marker), run_in_background: true }) : { text: "done" };
    });
    try {
      await writeConfig(home.path, llmConfig(server.url, { sandbox }));
      const r = await runNavi(["-p", "go", "--approval", "auto"], { home: home.path, cwd: ws.path });
      assertEquals(r.code, 0, r.stderr);
      assertEquals(seen, 1, `it ran while the turn went on (${JSON.stringify(sandbox)})`);
      assertEquals(processesWith(marker), [], `nothing left (${JSON.stringify(sandbox)})`);
      assertEquals(records(home.path), 0);
    } finally {
      await server.close();
    }
  }
});

Deno.test("after SIGKILL of navi its background shell is found and stopped by the next start", async () => {
  for (const sandbox of [{ mode: "off" }, {}]) {
    await using home = await tempDir();
    await using ws = await tempDir();
    const marker = `navi-orphan-${crypto.randomUUID().slice(0, 8)}`;
    const navi = await startNavi([call("bash", { command: marked(marker), run_in_background: true }), {
      hang: true,
    }], {
      home: home.path,
      ws: ws.path,
      config: (url) => llmConfig(url, { sandbox }),
    });
    try {
      await until(
        () => processesWith(marker).length === 1 && records(home.path) === 1,
        30_000,
        "the shell runs",
      );
      navi.child.kill("SIGKILL");
      await navi.done();
      if (sandbox.mode === "off") {
        assertEquals(
          processesWith(marker).length,
          1,
          "unconfined, the shell outlives a navi killed with SIGKILL",
        );
      } else {
        await until(() => processesWith(marker).length === 0, 5000, "bubblewrap ends it with its parent");
      }
      const server = startLlmServer([{ text: "hi" }]);
      try {
        await writeConfig(home.path, llmConfig(server.url, { sandbox }));
        const r = await runNavi(["-p", "hello"], { home: home.path, cwd: ws.path });
        assertEquals(r.code, 0, r.stderr);
        if (sandbox.mode === "off") {
          assertMatch(
            r.stderr,
            new RegExp(
              `stopped a background shell an earlier navi \\(pid ${navi.child.pid}\\) left running: m=${marker}`,
            ),
          );
        }
      } finally {
        await server.close();
      }
      assertEquals(processesWith(marker), [], `no orphan after the next start (${JSON.stringify(sandbox)})`);
      assertEquals(records(home.path), 0, "the record is gone");
    } finally {
      for (const pid of processesWith(marker)) Deno.kill(pid, "SIGKILL");
    }
  }
});

Deno.test("a second SIGTERM ends navi at once and still kills a background shell that ignores SIGTERM", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const marker = `navi-stubborn-${crypto.randomUUID().slice(0, 8)}`;
  const command = `trap '' TERM; ${marked(marker)}`;
  const navi = await startNavi([call("bash", { command, run_in_background: true }), { hang: true }], {
    home: home.path,
    ws: ws.path,
    config: (url) => llmConfig(url, { sandbox: { mode: "off" } }),
  });
  try {
    await until(() => processesWith(marker).length === 1, 30_000, "the shell runs");
    navi.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(
      processesWith(marker).length,
      1,
      "SIGTERM alone does not stop it: navi waits its grace period",
    );
    navi.child.kill("SIGTERM");
    const r = await navi.done();
    assertEquals(r.code, 143, r.stderr);
    await until(() => processesWith(marker).length === 0, 2000, "killed on the way out");
    assertEquals(records(home.path), 0);
  } finally {
    for (const pid of processesWith(marker)) Deno.kill(pid, "SIGKILL");
  }
});
