// One command hook run: input on stdin, output capped, the environment given, and bounded: a hook ended at
// its timeout takes what it started with it; one that leaves a process behind does not hold navi.
import { assert, assertEquals, until } from "../../helpers.ts";
import { OUTPUT_CAP, runCommandHook } from "../../../core/hooks/runner.ts";
import type { CommandHook } from "../../../core/hooks/types.ts";
import { markedSleep, pidsWith } from "../../support/navi_process.ts";

const hook = (command: string, timeoutMs = 10_000): CommandHook => ({
  event: "PreToolUse",
  matcher: "",
  matches: () => true,
  command,
  timeoutMs,
  source: { file: "/home/u/.navi/config.json", level: "user", vocabulary: "navi" },
  line: 3,
  confined: false,
  network: false,
});
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ONLY: "this" };

Deno.test("the input arrives on stdin; the hook sees only the environment it is given; exit code and streams", async () => {
  const r = await runCommandHook(
    hook('cat; echo "[$ONLY][${HOME:-none}]"; echo oops >&2; exit 4'),
    '{"a":1}',
    {
      cwd: "/",
      env,
    },
  );
  assertEquals([r.code, r.stdout, r.stderr, r.ended], [4, '{"a":1}[this][none]\n', "oops\n", undefined]);
});

Deno.test("stdout and stderr are capped at 10,000 characters each", async () => {
  const r = await runCommandHook(
    hook("head -c 50000 /dev/zero | tr '\\0' x; head -c 20000 /dev/zero | tr '\\0' y >&2"),
    "",
    {
      cwd: "/",
      env,
    },
  );
  assertEquals([r.code, r.stdout.length, r.stderr.length], [0, OUTPUT_CAP, OUTPUT_CAP]);
});

Deno.test("at its timeout a hook is ended together with the processes it started", async () => {
  const sleep = markedSleep();
  const started = performance.now();
  const r = await runCommandHook(hook(`${sleep.command}; echo late`, 300), "", { cwd: "/", env });
  assertEquals([r.code, r.ended, r.stdout], [null, "timeout", ""]);
  assert(performance.now() - started < 5_000);
  await until(() => pidsWith(sleep.marker).length === 0, 3_000, "the hook's sleep ended");
});

Deno.test("an abort (Ctrl-C, SIGTERM) ends a running hook at once", async () => {
  const sleep = markedSleep();
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 200);
  const r = await runCommandHook(hook(`${sleep.command}; echo late`), "", {
    cwd: "/",
    env,
    signal: stop.signal,
  });
  assertEquals([r.code, r.ended], [null, "aborted"]);
  await until(() => pidsWith(sleep.marker).length === 0, 3_000, "the hook's sleep ended");
});

Deno.test("a hook that exits but leaves a process holding its output does not hold navi", async () => {
  const sleep = markedSleep();
  try {
    const started = performance.now();
    const r = await runCommandHook(hook(`(${sleep.command} &); echo started`), "", { cwd: "/", env });
    assertEquals([r.code, r.stdout], [0, "started\n"]);
    assert(performance.now() - started < 5_000);
  } finally {
    for (const pid of pidsWith(sleep.marker)) Deno.kill(pid, "SIGKILL");
  }
});

Deno.test("a confined hook without a sandbox is not run, and says why", async () => {
  const r = await runCommandHook({ ...hook("true"), confined: true }, "", { cwd: "/", env });
  assertEquals([r.code, r.ended], [null, "not run: no sandbox"]);
});
