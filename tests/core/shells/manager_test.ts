// The background shells of a session with real processes (unconfined): first output, reading new output with
// a filter, exit codes, stopping with SIGTERM then SIGKILL, redaction, ids across a resume, the records.
import { join } from "node:path";
import { MAX_READ_CHARS, recordsDir } from "../../../core/mod.ts";
import { assert, assertEquals, assertMatch, until } from "../../helpers.ts";
import { marked, processesWith, shellManager } from "./support.ts";

const records = (home: string) => {
  try {
    return [...Deno.readDirSync(recordsDir(home))].map((e) => e.name);
  } catch {
    return [];
  }
};

Deno.test("start returns the id and first output; reads return only what is new; the exit code comes last", async () => {
  await using t = await shellManager();
  const first = await t.shells.start(
    t.spec("echo ready; read -t 0.6 _ </dev/zero; sleep 0.5; echo two; exit 3"),
  );
  assertEquals([first.id, first.status, first.output], ["shell_1", "running", "ready\n"]);
  assertEquals(records(t.home).length, 1, "a running shell is recorded for the next start");
  assertEquals((await t.shells.read("shell_1"))!.output, "", "nothing new yet");
  await until(async () => (await t.shells.read("shell_1"))?.status !== "running" || false, 10_000);
  const shell = t.shells.list()[0];
  assertEquals([shell.status, shell.exit_code], ["exited", 3]);
  assertEquals(await Deno.readTextFile(join(t.dir, "shell_1.log")), "ready\ntwo\n");
  assertEquals(records(t.home), [], "the record goes once the shell has ended");
  assertEquals(await t.shells.read("nope"), undefined);
});

Deno.test("a filter keeps matching lines, drops the others for good, and waits for a partial line's end", async () => {
  await using t = await shellManager();
  const first = await t.shells.start(
    t.spec("sleep 1.5; printf 'GET /a\\nnoise\\nGET /b\\npartial GET'; sleep 30"),
  );
  assertEquals(first.output, "", "nothing within the first second");
  await until(() => t.shells.list()[0].bytes >= 31, 5000);
  const keep = (line: string) => line.includes("GET");
  const kept = (await t.shells.read("shell_1", { keep }))!;
  assertEquals(kept.output, "GET /a\nGET /b\n");
  assertMatch(kept.note!, /1 line\(s\) did not match the filter/);
  assertEquals((await t.shells.read("shell_1", { keep }))!.output, "", "dropped lines do not come back");
  assertEquals((await t.shells.read("shell_1"))!.output, "partial GET", "the partial line waited");
});

Deno.test("kill sends SIGTERM to every process, then SIGKILL to those that ignore it", async () => {
  await using t = await shellManager({ graceMs: 400 });
  const marker = `navi-test-${crypto.randomUUID().slice(0, 8)}`;
  await t.shells.start(
    t.spec(`(${marked(marker)}) & trap 'echo got TERM' TERM; while true; do sleep 0.1; done`),
  );
  await until(() => processesWith(marker).length === 1);
  const started = performance.now();
  const report = (await t.shells.kill("shell_1"))!;
  const ms = performance.now() - started;
  assertEquals(report.status, "killed");
  assertMatch(report.output, /got TERM/);
  assert(ms >= 350, `the stubborn shell had its grace period first (${ms} ms)`);
  assertEquals(processesWith(marker), [], "the child it started is gone too");
  assertEquals(records(t.home), []);
});

Deno.test("close stops every shell, also one whose leader exited but left a process behind; then none starts", async () => {
  await using t = await shellManager();
  const marker = `navi-test-${crypto.randomUUID().slice(0, 8)}`;
  await t.shells.start(t.spec(`(${marked(marker)}) </dev/null >/dev/null 2>&1 & echo left`));
  await t.shells.start(t.spec(marked(`${marker}-b`)));
  await until(() => processesWith(marker).length === 1 && processesWith(`${marker}-b`).length === 1);
  await until(() => t.shells.running() === 1, 5000, "the first shell's output ended with its leader");
  await t.shells.close();
  assertEquals([...processesWith(marker), ...processesWith(`${marker}-b`)], []);
  assertEquals(records(t.home), []);
  await t.shells.start(t.spec("true")).then(
    () => assert(false, "started after close"),
    (err) => assertMatch((err as Error).message, /closing/),
  );
});

Deno.test("output is redacted in the log and in reads, also a secret split across writes", async () => {
  const secret = "sk-shell-secret-0123456789";
  await using t = await shellManager({ secret });
  const r = await t.shells.start(
    t.spec(`printf 'key sk-shell-'; sleep 0.05; printf 'secret-0123456789 end\\n'`),
  );
  await until(() => t.shells.list()[0].status === "exited");
  const all = r.output + (await t.shells.read("shell_1"))!.output;
  assertEquals(all, "key [redacted] end\n");
  const log = await Deno.readTextFile(join(t.dir, "shell_1.log"));
  assertEquals(log, "key [redacted] end\n");
});

Deno.test("much new output: the newest part comes back with a note naming the whole log", async () => {
  await using t = await shellManager();
  await t.shells.start(t.spec("sleep 1.2; for i in $(seq 1 20000); do echo line $i; done"));
  await until(() => t.shells.list()[0].status === "exited", 10_000);
  const r = (await t.shells.read("shell_1"))!;
  assert(r.output.length <= MAX_READ_CHARS);
  assert(r.output.endsWith("line 20000\n"));
  assert(r.output.startsWith("line "), "cut at a line start");
  assertMatch(
    r.note!,
    /newest output is shown; \d+ characters before it are not; the whole log is .*shell_1\.log/,
  );
});

Deno.test("ids go on where an earlier run of the session stopped (a resume)", async () => {
  await using t = await shellManager();
  await t.shells.start(t.spec("true"));
  await t.shells.start(t.spec("true"));
  await t.shells.close();
  const again = t.make();
  const r = await again.start(t.spec("echo hi"));
  assertEquals(r.id, "shell_3");
  await again.close();
});
