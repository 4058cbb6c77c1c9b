import type { Key } from "./keys.ts";
import type { Style } from "./style.ts";
import type { KeySource, TermOut } from "./terminal.ts";
import { middleEllipsis } from "./text_width.ts";

/**
 * A list to pick one row from with the keys: Up/Down (Ctrl-P/N, k/j) move, a digit jumps to that row, Home
 * and End, Enter picks, Esc, q and Ctrl-C cancel. Drawn in place below `title`; the picked row stays.
 */
export function chooseFromList(
  rows: string[],
  io: { input: KeySource; out: TermOut; style: Style; title: string },
): Promise<number | undefined> {
  const { out, style } = io;
  let at = 0;
  let drawn = 0;
  const draw = (final?: number | null) => {
    const width = Math.max(20, out.columns() - 3);
    const lines = final === undefined
      ? [
        style.dim(io.title),
        ...rows.map((r, i) => (i === at
          ? `${style.bold("›")} ${style.bold(middleEllipsis(r, width))}`
          : `  ${middleEllipsis(r, width)}`)
        ),
      ]
      : final === null
      ? [style.dim(`${io.title.replace(/ \(.*$/, "")} cancelled`)]
      : [`${style.bold("›")} ${middleEllipsis(rows[final], width)}`];
    out.write((drawn ? `\x1b[${drawn}A\r\x1b[J` : "") + lines.map((l) => l + "\r\n").join(""));
    drawn = lines.length;
  };
  draw();
  return new Promise((resolve) => {
    const done = (i: number | undefined) => {
      pop();
      draw(i ?? null);
      resolve(i);
    };
    const onKey = (key: Key): boolean => {
      const name = key.kind === "key" ? key.name : key.kind === "text" ? key.text : "";
      const ctrl = key.kind === "key" && key.ctrl;
      if (name === "enter") return done(at), true;
      if (
        name === "escape" || name === "closed" || name === "q" || (ctrl && (name === "c" || name === "d"))
      ) {
        return done(undefined), true;
      }
      const moves: Record<string, number> = {
        up: at - 1,
        k: at - 1,
        down: at + 1,
        j: at + 1,
        home: 0,
        end: rows.length - 1,
      };
      let next = ctrl && name === "p" ? at - 1 : ctrl && name === "n" ? at + 1 : moves[name];
      if (/^[1-9]$/.test(name)) next = Number(name) - 1;
      if (next === undefined || next < 0 || next >= rows.length) return false;
      at = next;
      draw();
      return false;
    };
    const pop = io.input.push((keys) => {
      for (const key of keys) {
        const list = key.kind === "text" && key.text.length > 1
          ? [...key.text].map((t) => ({ kind: "text" as const, text: t }))
          : [key];
        for (const k of list) if (onKey(k)) return;
      }
    });
  });
}
