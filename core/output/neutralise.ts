/**
 * Text from outside navi (model answers, tool output, MCP texts and errors, plugin and hook output) made
 * harmless for a terminal: control characters are shown as visible escapes (`\x1b]52;...`), so a hostile text
 * cannot write the clipboard (OSC 52), set the title (OSC 0), colour or conceal text (SGR), clear the screen
 * or move the cursor; bidirectional and invisible format characters (the "Trojan Source" trick) are shown as
 * `\u202e` so what is shown is what runs. One table of what is unsafe serves both functions below.
 */

function visible(c: string): string {
  if (c === "\r") return "\\r";
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * What is never shown raw: C0 controls but newline and tab, DEL, C1 controls, and the bidirectional and
 * invisible format characters (U+061C, U+200B-U+200F, U+202A-U+202E, U+2060-U+2064, U+2066-U+2069, U+FEFF).
 * A zero-width joiner inside an emoji sequence (👨‍👩‍👧) is the one exception: it joins pictures, not text.
 */
const UNSAFE =
  "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u200b\\u200c\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]|(?<!\\p{Extended_Pictographic}[\\ufe0f\\u{1f3fb}-\\u{1f3ff}]?)\\u200d|\\u200d(?!\\p{Extended_Pictographic})";

const CONTROLS = new RegExp(`\\r\\n|${UNSAFE}`, "gu");

/** Every unsafe character shown escaped (`\r\n` becomes `\n`); for untrusted text. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => (c === "\r\n" ? "\n" : visible(c)));
}

/**
 * The SGR parameters navi's own styles and the code highlighter use: reset, bold, dim, italic, underline,
 * strike-through, their ends, and the 16 foreground colours. Conceal (8), blink, inverse and others are
 * never let through, whoever wrote them.
 */
const SGR_PARAM = "(?:0|1|2|3|4|9|22|23|24|29|3[0-7]|39|9[0-7])";

/**
 * navi's own sequences in a stream: colours (SGR), clearing the current line (`\r` + erase-in-line), and
 * redrawing the line being streamed (`\r`, optionally up a few rows, erase below: the markdown renderer's).
 */
const STREAM_OWN =
  `\\x1b\\[(?:${SGR_PARAM}(?:;${SGR_PARAM})*)?m|\\r?\\x1b\\[[012]?K|\\r(?:\\x1b\\[\\d{1,3}A)?\\x1b\\[J`;

/**
 * What navi's own drawing of the input line adds (the line editor, the approval box): carriage returns,
 * cursor up, down, right and home, erase below or the whole screen and scrollback, bracketed paste on and off.
 */
const DRAWING_OWN = `\\r|\\x1b\\[\\d{0,4}[ABCJ]|\\x1b\\[[23]J|\\x1b\\[H|\\x1b\\[\\?2004[hl]`;

const SINK = new RegExp(`${STREAM_OWN}|\\r\\n|${UNSAFE}`, "gu");
const DRAWING = new RegExp(`${STREAM_OWN}|${DRAWING_OWN}|${UNSAFE}`, "gu");

/**
 * What a terminal sink lets through: navi's own colours and line clearing unchanged (`drawing`: also the
 * line editor's cursor moves), every other control or format character escaped. A backstop for text that did
 * not pass `escapeControls` on its way in; untrusted text must still be escaped where it enters, since a
 * colour sequence alone cannot tell who wrote it.
 */
export function terminalSafe(text: string, opts: { drawing?: boolean } = {}): string {
  return text.replace(
    opts.drawing ? DRAWING : SINK,
    (
      m,
    ) => (m === "\r\n" && !opts.drawing
      ? "\n"
      : m.length > 1 || (opts.drawing && m === "\r")
      ? m
      : visible(m)),
  );
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
