/**
 * Text from outside navi (model answers, tool output, MCP errors and descriptions) made harmless for a
 * terminal: control characters are shown as visible escapes (`\x1b]52;...`), so a hostile text cannot write
 * the clipboard (OSC 52), set the title (OSC 0), clear the screen or move the cursor.
 */

function visible(c: string): string {
  if (c === "\r") return "\\r";
  return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
}

// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROLS = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Every control character but newline and tab shown escaped (`\r\n` becomes `\n`); for untrusted text. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => (c === "\r\n" ? "\n" : visible(c)));
}

/**
 * navi's own sequences: colours (SGR), clearing the current line (`\r` + erase-in-line), and redrawing the
 * line being streamed (`\r`, optionally up a few rows, erase below: the markdown renderer's).
 */
const SINK =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /\x1b\[[0-9;]*m|\r?\x1b\[[012]?K|\r(?:\x1b\[\d{1,3}A)?\x1b\[J|\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * What a terminal sink lets through: navi's own colours and line clearing unchanged, every other control
 * character escaped. A backstop for text that did not pass `escapeControls` on its way in.
 */
export function terminalSafe(text: string): string {
  return text.replace(SINK, (m) => (m.length > 1 ? (m === "\r\n" ? "\n" : m) : visible(m)));
}

/**
 * How a terminal is asked to show a desktop notification: OSC 9 (iTerm2, WezTerm, Ghostty), OSC 777 (VTE
 * terminals, urxvt, foot) or OSC 99 (kitty).
 */
export type NotificationProtocol = "osc9" | "osc777" | "osc99";

/**
 * navi's own notification as an escape sequence: OSC 9 (`ESC ] 9 ; text BEL`), OSC 777 (`ESC ] 777 ;
 * notify ; navi ; text BEL`) or OSC 99 (`ESC ] 99 ; ; text ESC \`), wrapped for tmux's passthrough when
 * `tmux`. The text loses every control character and is cut to 200 characters, so nothing in it can end the
 * sequence early or start another.
 */
export function notificationSequence(
  text: string,
  opts: { protocol: NotificationProtocol; tmux?: boolean },
): string {
  // deno-lint-ignore no-control-regex -- removing control characters is the point
  const clean = text.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim().slice(0, 200);
  const osc = opts.protocol === "osc777"
    ? `\x1b]777;notify;navi;${clean}\x07`
    : opts.protocol === "osc99"
    ? `\x1b]99;;${clean}\x1b\\`
    : `\x1b]9;${clean}\x07`;
  return opts.tmux ? `\x1bPtmux;${osc.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : osc;
}
