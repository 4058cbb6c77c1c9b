// A shell's log: rotation at its size limit, and reads that start inside a character.
import { join } from "node:path";
import { ShellLog } from "../../../core/shells/log.ts";
import { assertEquals, assertMatch, tempDir } from "../../helpers.ts";

Deno.test("a full log moves to .1.log and starts anew; the next read says where the older output went", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "shell_1.log");
  const log = new ShellLog(path, { maxBytes: 100 });
  log.append("a".repeat(60) + "\n");
  log.append("b".repeat(60) + "\n");
  const r = log.readNew({ maxChars: 1000, final: false });
  assertEquals(r.output, "b".repeat(60) + "\n");
  assertMatch(r.note!, /older output is in .*shell_1\.1\.log/);
  assertEquals(await Deno.readTextFile(join(dir.path, "shell_1.1.log")), "a".repeat(60) + "\n");
  assertEquals(log.bytes, 122);
  log.close();
});

Deno.test("the newest part of a read never starts with half a character", async () => {
  await using dir = await tempDir();
  const log = new ShellLog(join(dir.path, "x.log"));
  log.append("é".repeat(300_000) + "z");
  const r = log.readNew({ maxChars: 1_000_000, final: true });
  assertEquals(r.output.replaceAll("é", ""), "z", "no replacement character at the start");
  assertEquals(r.output.length, (512 * 1024 - 2) / 2 + 1, "the newest 512 KiB, less the half character");
  assertMatch(r.note!, /1 characters|\d+ bytes/);
  log.close();
});
