// Black-box: navi processes under stream faults, rate limits and real signals (SIGINT, SIGTERM, SIGHUP).
import { join } from "node:path";
import { CUT_MARKERS } from "../../../core/mod.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { markedSleep, pidsWith, processGone, spawnNavi } from "../../support/navi_process.ts";
import { assertValidSession, onlySession } from "../../support/session_check.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  keyedLlmConfig,
  ROOT,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";

const KEY = "sk-signals-VERY-SECRET-0123456789";

// Real sleep: a -p child shows nothing of a response before it ends, so it gets 300 ms to read what was sent.
const settle = () => new Promise((r) => setTimeout(r, 300));
const touch = { name: "bash", arguments: '{"command":"touch ran.txt"}' };

Deno.test("-p: a stream that ends without finish_reason exits 1 with one line; its tool call never runs", async () => {
  await using home = await tempDir();
  const server = startLlmServer([{
    text: "Let me",
    toolCalls: [touch],
    fault: { omit: ["finish", "usage", "done"] },
  }]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url, { approval: "auto" }));
    const navi = spawnNavi(["-p", "touch it"], { home: home.path, env: { TEST_LLM_KEY: KEY } });
    const r = await navi.done;
    assertEquals(r.code, 1, r.stderr);
    assertMatch(
      r.stderr,
      /^navi: the response stream from local \(http:\/\/127\.0\.0\.1:\d+\/v1\) ended before the answer was complete \(no finish_reason\)\n$/,
    );
    assertEquals(r.stdout, "");
    assert(!r.stderr.includes(KEY), "no secret on stderr");
    assert(!(await Deno.stat(join(home.path, "ran.txt")).catch(() => null)), "the tool call did not run");
    const messages = assertValidSession(await onlySession(home.path), [KEY]);
    assertMatch(String(messages.at(-1)?.content), /^Let me\n\n\[the response stream broke off: /);
  } finally {
    await server.close();
  }
});

const moments: {
  name: string;
  step: Step;
  ready: (p: { sent: number; hanging: boolean }) => boolean;
  /** The server's part is sent and it hangs: the child needs time to read it (see `settle`). */
  settle?: true;
  /** The last message: "user" (no answer stored) or the content of the kept partial answer. */
  last: string | RegExp;
}[] = [
  { name: "before the headers", step: { hang: true }, ready: () => true, last: "user" },
  {
    name: "after the headers",
    step: { text: "never", fault: { cutAfter: 0, then: "hang" } },
    ready: (p) => p.hanging,
    settle: true,
    last: "user",
  },
  {
    name: "mid-text",
    step: { text: "Half of the reply", fault: { cutAfter: 2, then: "hang" } },
    ready: (p) => p.hanging,
    settle: true,
    last: `Half o\n\n${CUT_MARKERS.interrupted}`,
  },
  {
    name: "mid tool call",
    step: { toolCalls: [touch], fault: { cutAfter: 3, then: "hang" } },
    ready: (p) => p.hanging,
    settle: true,
    last: CUT_MARKERS.interrupted.replace("]", "; 1 tool call(s) in it were not run]"),
  },
  {
    name: "mid-text of a slow stream",
    step: { text: "one two three four five six seven", fault: { delayMs: 150 } },
    // The third event goes out 150 ms after the second (the first text piece) was taken: the child has it.
    ready: (p) => p.sent >= 3,
    last: /^one two.*\n\n\[interrupted by the user: this answer is incomplete\]$/s,
  },
];

Deno.test("SIGINT at any moment of a request ends -p with 130, prints no answer, leaves a valid session", async (t) => {
  for (const moment of moments) {
    await t.step(moment.name, async () => {
      await using home = await tempDir();
      const server = startLlmServer([moment.step]);
      try {
        await writeConfig(home.path, keyedLlmConfig(server.url, { approval: "auto" }));
        const navi = spawnNavi(["-p", "go"], {
          home: home.path,
          env: { TEST_LLM_KEY: KEY },
          timeoutMs: 20_000,
        });
        await until(
          () => server.requests.length > 0 && moment.ready(server.requests[0].progress),
          15_000,
          "moment",
        );
        if (moment.settle) await settle();
        navi.child.kill("SIGINT");
        const r = await navi.done;
        assertEquals(r.code, 130, r.stderr);
        assertEquals(r.stdout, "", "a cut answer is never printed as the answer");
        assertEquals(r.stderr, "navi: interrupted (SIGINT)\n");
        assert(!(await Deno.stat(join(home.path, "ran.txt")).catch(() => null)), "no tool call ran");
        const messages = assertValidSession(await onlySession(home.path), [KEY]);
        const last = messages.at(-1)!;
        const seen = last.role === "user" ? "user" : String(last.content);
        if (moment.last instanceof RegExp) assertMatch(seen, moment.last);
        else assertEquals(seen, moment.last);
        assert(!(r.stdout + r.stderr).includes(KEY), "no secret on stdout or stderr");
      } finally {
        await server.close();
      }
    });
  }
});

Deno.test("-p announces a rate-limit retry on stderr, and SIGINT ends the wait at once", async () => {
  await using home = await tempDir();
  const server = startLlmServer([
    { status: 429, message: "slow down", headers: { "retry-after": "30" } },
    { text: "too late" },
  ]);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url));
    const navi = spawnNavi(["-p", "hi"], { home: home.path, env: { TEST_LLM_KEY: KEY }, timeoutMs: 15_000 });
    await until(() => navi.stderr().includes("\n") || navi.stderr().length > 200, 10_000, "the announcement");
    assertEquals(navi.stderr(), "navi: rate limited (429), retrying in 30 s (retry 1 of 3)\n");
    navi.child.kill("SIGINT");
    const r = await navi.done;
    assertEquals(r.code, 130, r.stderr);
    assertEquals(server.requests.length, 1);
    assertValidSession(await onlySession(home.path), [KEY]);
  } finally {
    await server.close();
  }
});

Deno.test("-p fails with one line when retry-after is beyond retry.max_wait_s", async () => {
  await using home = await tempDir();
  const server = startLlmServer(() => ({
    status: 429,
    message: "slow down",
    headers: { "retry-after": "3600" },
  }));
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url, { retry: { max_wait_s: 5 } }));
    const r = await spawnNavi(["-p", "hi"], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
      timeoutMs: 20_000,
    }).done;
    assertEquals(r.code, 1, r.stderr);
    assertMatch(
      r.stderr,
      /^navi: API error 429 from local \(.*\): slow down \(the provider asks to retry in 3600 s, longer than retry\.max_wait_s 5 s\)\n$/,
    );
  } finally {
    await server.close();
  }
});

/** A model that runs one long bash command (found on the host by `marker`), then answers. */
function sleeper(): { steps: Step[]; marker: string } {
  const { command, marker } = markedSleep();
  return {
    steps: [
      { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: `${command} & wait` }) }] },
      { text: "slept" },
    ],
    marker,
  };
}

/** The host pid of the process whose command line has `marker`, once it runs. */
async function pidOf(marker: string): Promise<number> {
  let pid = 0;
  await until(() => (pid = pidsWith(marker)[0] ?? 0) > 0, 20_000, `a process running ${marker}`);
  return pid;
}

async function readPid(file: string): Promise<number> {
  let pid = 0;
  await until(async () => (pid = Number(await Deno.readTextFile(file).catch(() => ""))) > 0, 20_000, file);
  return pid;
}

for (const [sig, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.test(`${sig} ends -p like SIGINT: bash process group and MCP servers killed, session consistent, exit ${code}`, async () => {
    await using home = await tempDir();
    const sleep = sleeper();
    const server = startLlmServer(sleep.steps);
    try {
      const mcp = `echo $$ > mcp.pid; exec ${Deno.execPath()} run -A ${
        join(ROOT, "tests/support/mcp_test_server.ts")
      }`;
      await writeConfig(
        home.path,
        keyedLlmConfig(server.url, {
          approval: "auto",
          mcp_servers: { t: { command: "bash", args: ["-c", mcp], cwd: home.path } },
        }),
      );
      const navi = spawnNavi(["-p", "sleep"], {
        home: home.path,
        env: { TEST_LLM_KEY: KEY },
        timeoutMs: 40_000,
      });
      const mcpPid = await readPid(join(home.path, "mcp.pid"));
      const sleepPid = await pidOf(sleep.marker);
      navi.child.kill(sig);
      const r = await navi.done;
      try {
        await until(() => processGone(sleepPid), 3000, "the bash command's sleep to be gone");
        await until(() => processGone(mcpPid), 3000, "the MCP server to be gone");
      } finally {
        for (const pid of [sleepPid, mcpPid]) if (!processGone(pid)) Deno.kill(pid, "SIGKILL");
      }
      const messages = assertValidSession(await onlySession(home.path), [KEY]);
      assertMatch(JSON.parse(String(messages.at(-1)?.content)).error, /aborted by the user/i);
      assertEquals(server.requests.length, 1, "no request after the signal");
      assertEquals(r.code, code, r.stderr);
      assertMatch(r.stderr, new RegExp(`navi: (terminated|hung up) \\(${sig}\\)\\n$`));
    } finally {
      await server.close();
    }
  });
}

Deno.test("the REPL ends on SIGTERM mid-command and on SIGHUP at the prompt, killing what runs", async () => {
  await using home = await tempDir();
  const sleep = sleeper();
  const server = startLlmServer(sleep.steps);
  try {
    await writeConfig(home.path, keyedLlmConfig(server.url, { approval: "auto" }));
    const navi = spawnNavi([], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
      stdin: true,
      timeoutMs: 30_000,
    });
    await navi.write("sleep please\n");
    const sleepPid = await pidOf(sleep.marker);
    navi.child.kill("SIGTERM");
    const r = await navi.done;
    try {
      await until(() => processGone(sleepPid), 3000, "the bash command's sleep to be gone");
    } finally {
      if (!processGone(sleepPid)) Deno.kill(sleepPid, "SIGKILL");
    }
    assertValidSession(await onlySession(home.path), [KEY]);
    assertEquals(r.code, 143, r.stderr);
    assertMatch(r.stderr, /navi: terminated \(SIGTERM\)\n$/);
    await Deno.remove(join(home.path, "sessions"), { recursive: true });

    const idle = spawnNavi([], {
      home: home.path,
      env: { TEST_LLM_KEY: KEY },
      stdin: true,
      timeoutMs: 30_000,
    });
    await idle.write("/help\n");
    await until(() => idle.stdout().includes("/exit"), 20_000, "the REPL to answer /help");
    idle.child.kill("SIGHUP");
    const h = await idle.done;
    assertEquals(h.code, 129, h.stderr);
    assertMatch(h.stderr, /navi: hung up \(SIGHUP\)\n$/);
  } finally {
    await server.close();
  }
});
