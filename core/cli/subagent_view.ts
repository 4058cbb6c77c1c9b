// The running subagents as the terminal shows them: one live line each under the parent's task call, and a
// line when each one ends (on stderr in -p, where their activity lines go too).
import type { SubagentEnd, SubagentInfo } from "../mod.ts";
import { escapeControls } from "../output/mod.ts";
import { shorten, type Style } from "./style.ts";

interface Live {
  info: SubagentInfo;
  started: number;
  tool?: string;
  tools: number;
}

/** The subagents running now, and the lines that tell of them. */
export class SubagentView {
  #live = new Map<string, Live>();
  #style: Style;
  #now: () => number;

  /** Lines styled with `style`; times from `now`. */
  constructor(style: Style, now: () => number = Date.now) {
    this.#style = style;
    this.#now = now;
  }

  /** How many run now. */
  get size(): number {
    return this.#live.size;
  }

  /** One started; returns its start line (for -p). */
  start(info: SubagentInfo): string {
    this.#live.set(key(info), { info, started: this.#now(), tools: 0 });
    return this.#line(info, "started");
  }

  /** One calls `tool`; returns its activity line (for -p). */
  tool(info: SubagentInfo, tool: string): string {
    const live = this.#live.get(key(info));
    if (live) {
      live.tool = tool;
      live.tools++;
    }
    return this.#line(info, escapeControls(tool));
  }

  /** One ended; returns its end line. */
  end(info: SubagentInfo, end: SubagentEnd): string {
    const live = this.#live.get(key(info));
    this.#live.delete(key(info));
    const calls = live ? ` · ${live.tools} tool call${live.tools === 1 ? "" : "s"}` : "";
    const secs = `${(end.ms / 1000).toFixed(1)}s`;
    const what = end.ok
      ? `done${calls} · ${secs}`
      : `${this.#style.red(escapeControls(shorten(end.error ?? "failed", 100)))}${calls} · ${secs}`;
    return this.#line(info, what);
  }

  /** The live lines, one per running subagent: agent, description, current tool, elapsed (at most `width`). */
  lines(width = 100): string[] {
    const now = this.#now();
    return [...this.#live.values()].map((l) => {
      const s = Math.floor((now - l.started) / 1000);
      const text = `↳ ${l.info.agent} · ${l.info.description}${l.tool ? ` · ${l.tool}` : ""} · ${s}s`;
      return `  ${escapeControls(shorten(text, width - 2))}`;
    });
  }

  #line(info: SubagentInfo, what: string): string {
    const head = escapeControls(shorten(`↳ ${info.agent} · ${info.description}`, 80));
    return this.#style.dim(`  ${head}: `) + what;
  }
}

function key(info: SubagentInfo): string {
  return `${info.depth}:${info.transcript}`;
}
