import { relative } from "node:path";
import type { TrustItem, TrustQuestion } from "../mod.ts";
import { type Style, table } from "./style.ts";

/** What would run, one row per item: kind, exactly what, and the file (relative to the folder). */
export function trustList(root: string, items: readonly TrustItem[], style: Style): string {
  const rows = items.map((i) => {
    const rel = relative(root, i.file);
    return [`  ${i.kind}`, i.what, style.dim(rel.startsWith("..") ? i.file : rel)];
  });
  return table(rows);
}

/** The text above the question: the folder, whether it changed, and the list. */
export function trustIntro(q: Pick<TrustQuestion, "root" | "state" | "items">, style: Style): string {
  const lead = q.state === "changed"
    ? `The project files of ${q.root} changed since you last answered. They would run or allow:`
    : `The project files of ${q.root} would run code or widen permissions:`;
  return `${style.bold(lead)}\n${trustList(q.root, q.items, style)}\n`;
}

/** One line typed on a terminal in its normal (cooked) mode; undefined at end of input. */
export async function readCookedLine(stdin: { read(p: Uint8Array): Promise<number | null> } = Deno.stdin) {
  const buf = new Uint8Array(256);
  let line = "";
  while (true) {
    const n = await stdin.read(buf);
    if (n === null) return line ? line : undefined;
    line += new TextDecoder().decode(buf.subarray(0, n));
    if (line.includes("\n")) return line.slice(0, line.indexOf("\n")).replace(/\r$/, "");
  }
}

/**
 * Ask on the terminal whether to trust the folder: yes, no, or show (every file with its text, then ask
 * again). End of input counts as no.
 */
export async function askTrustOnTerminal(
  q: TrustQuestion,
  io: { write(text: string): void; readLine(): Promise<string | undefined>; style: Style },
): Promise<boolean> {
  io.write(trustIntro(q, io.style));
  while (true) {
    io.write("Trust this folder and run them? [y]es / [n]o / [s]how the files: ");
    const answer = (await io.readLine())?.trim().toLowerCase();
    if (answer === undefined) return false;
    if (answer === "y" || answer === "yes") {
      io.write(io.style.dim(`trusted ${q.root} (navi trust --revoke undoes it)`) + "\n");
      return true;
    }
    if (answer === "n" || answer === "no" || answer === "") {
      io.write(
        io.style.dim(`not trusted; its code-running parts are skipped (navi trust trusts it later)`) + "\n",
      );
      return false;
    }
    if (answer === "s" || answer === "show") {
      for (const f of await q.files()) io.write(`${io.style.bold(`--- ${f.path}`)}\n${f.text.trimEnd()}\n`);
    }
  }
}
