import { sleep } from "../../core/provider/retry.ts";
import { FakeClock } from "./clock.ts";
import { assertEquals, assertThrows } from "../helpers.ts";

Deno.test("FakeClock: time moves only by advance; due timers fire in order, cleared ones never", () => {
  const clock = new FakeClock(1000);
  const fired: string[] = [];
  const at = (name: string) => () => fired.push(`${name}@${clock.now()}`);
  clock.setTimeout(at("late"), 30);
  clock.setTimeout(at("early"), 10);
  clock.setTimeout(at("tie"), 10);
  const gone = clock.setTimeout(at("cleared"), 5);
  clock.clearTimeout(gone);
  clock.clearTimeout(undefined);
  assertEquals([clock.now(), clock.pending, clock.nextDue], [1000, 3, 10]);
  clock.advance(9);
  assertEquals(fired, []);
  clock.advance(21);
  assertEquals(fired, ["early@1010", "tie@1010", "late@1030"]);
  assertEquals([clock.now(), clock.pending, clock.nextDue], [1030, 0, undefined]);
  assertThrows(() => clock.advance(-1), /negative/);
});

Deno.test("FakeClock: a timer set by a firing timer fires in the same advance when it falls due", () => {
  const clock = new FakeClock(0);
  const fired: number[] = [];
  clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 10), 10);
  clock.setTimeout(() => fired.push(clock.now()), 0);
  clock.advance(0);
  assertEquals(fired, [0]);
  clock.advance(25);
  assertEquals([fired, clock.now()], [[0, 20], 25]);
});

Deno.test("FakeClock drives a wait of navi's: it ends when the clock passes it, an abort ends it at once", async () => {
  const clock = new FakeClock();
  let done = false;
  const wait = sleep(60_000, new AbortController().signal, clock).then(() => (done = true));
  clock.advance(59_999);
  await Promise.resolve();
  assertEquals(done, false);
  clock.advance(1);
  await wait;
  const controller = new AbortController();
  const aborted = sleep(60_000, controller.signal, clock).catch((e: Error) => e.name);
  controller.abort();
  assertEquals([await aborted, clock.pending], ["AbortError", 0]);
});
