// Which terminal notification a wait asks for: the protocol by terminal, the threshold, `notify: false`.
import { notificationProtocol, notificationText } from "../../../core/cli/notify.ts";
import { assertEquals } from "../../helpers.ts";

const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });

Deno.test("OSC 99 for kitty, OSC 777 for VTE terminals, urxvt and foot; OSC 9 elsewhere", () => {
  assertEquals(notificationProtocol(env({ TERM: "xterm-kitty" })), "osc99");
  assertEquals(notificationProtocol(env({ KITTY_WINDOW_ID: "1", TERM: "xterm-256color" })), "osc99");
  assertEquals(notificationProtocol(env({ VTE_VERSION: "7600", TERM: "xterm-256color" })), "osc777");
  assertEquals(notificationProtocol(env({ TERM: "rxvt-unicode-256color" })), "osc777");
  assertEquals(notificationProtocol(env({ TERM: "foot" })), "osc777");
  assertEquals(notificationProtocol(env({ TERM: "xterm-256color", TERM_PROGRAM: "iTerm.app" })), "osc9");
  assertEquals(notificationProtocol(env({})), "osc9");
});

Deno.test("a turn notifies from notify.after_s (default 10 s), never when interrupted or with notify: false", () => {
  const turn = (ms: number, aborted = false) => ({ reason: "turn_end" as const, ms, aborted });
  assertEquals(notificationText(turn(9_999), undefined), undefined);
  assertEquals(notificationText(turn(10_000), undefined), "navi is done (10 s) and waits for you");
  assertEquals(notificationText(turn(10_000), true), "navi is done (10 s) and waits for you");
  assertEquals(notificationText(turn(2_000), { after_s: 2 }), "navi is done (2 s) and waits for you");
  assertEquals(notificationText(turn(60_000, true), undefined), undefined);
  assertEquals(notificationText(turn(60_000), false), undefined);
  const approval = { reason: "approval" as const, tool: "bash", summary: `command="${"x".repeat(200)}"` };
  assertEquals(
    notificationText(approval, { after_s: 1000 })!.length,
    "navi needs your approval: ".length + 120,
  );
  assertEquals(notificationText(approval, false), undefined);
});
