// Terminal notifications: when a long turn ends or an approval waits, navi asks the terminal for a desktop
// notification (OSC 9, or OSC 777 / OSC 99 where the terminal is known to prefer it), so that a user in another window
// learns that navi waits.
import type { Config, NotificationProtocol, Sink, UserWait } from "../mod.ts";

/** A turn this long or longer ends with a notification unless `notify.after_s` says otherwise. */
export const DEFAULT_NOTIFY_AFTER_S = 10;

/** The protocol the terminal in `env` takes: OSC 99 for kitty, OSC 777 for VTE terminals, urxvt and foot, else OSC 9. */
export function notificationProtocol(env: { get(key: string): string | undefined }): NotificationProtocol {
  const term = env.get("TERM") ?? "";
  if (env.get("KITTY_WINDOW_ID") || term === "xterm-kitty") return "osc99";
  if (env.get("VTE_VERSION") || /^(rxvt|foot)/.test(term)) return "osc777";
  return "osc9";
}

/** The text of the notification for a wait, or undefined when this wait asks for none. */
export function notificationText(wait: UserWait, settings: Config["notify"]): string | undefined {
  if (settings === false) return undefined;
  if (wait.reason === "approval") {
    const what = `${wait.tool}${wait.summary ? ` ${wait.summary}` : ""}`;
    return `navi needs your approval: ${what.length > 120 ? `${what.slice(0, 119)}…` : what}`;
  }
  if (wait.aborted) return undefined;
  const after = typeof settings === "object" && settings.after_s !== undefined
    ? settings.after_s
    : DEFAULT_NOTIFY_AFTER_S;
  if (wait.ms < after * 1000) return undefined;
  return `navi is done (${Math.round(wait.ms / 1000)} s) and waits for you`;
}

/**
 * The `waitingForUser` handler of a terminal front: a notification through `sink` (whose `notify` is the
 * only way such a sequence reaches the terminal) when the wait calls for one; nothing when not on a terminal.
 */
export function terminalNotifier(
  opts: {
    sink: Sink;
    settings: Config["notify"];
    env: { get(key: string): string | undefined };
    terminal: boolean;
  },
): (wait: UserWait) => void {
  const protocol = notificationProtocol(opts.env);
  const tmux = !!opts.env.get("TMUX");
  return (wait) => {
    if (!opts.terminal) return;
    const text = notificationText(wait, opts.settings);
    if (text) opts.sink.notify?.(text, { protocol, tmux });
  };
}
