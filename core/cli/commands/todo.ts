import type { AgentEvents, TodoItem } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { shorten, type Style } from "../style.ts";
import { printable } from "../text_width.ts";

const MARKS = { completed: "✔", in_progress: "▸", pending: "☐" } as const;

/**
 * The todo list as a compact checklist: a header with the count done, then one line per item (done ones
 * dimmed and struck through, the one in progress bold). Item text comes from the model: control characters
 * are shown escaped.
 */
export function todoChecklist(items: readonly TodoItem[], opts: { style: Style; width?: number }): string {
  const { style } = opts;
  const done = items.filter((i) => i.status === "completed").length;
  const lines = [style.dim(`todo ${done}/${items.length} done`)];
  for (const item of items) {
    const text = printable(shorten(item.content, (opts.width ?? 100) - 4));
    const line = `${MARKS[item.status]} ${text}`;
    lines.push(
      "  " +
        (item.status === "completed"
          ? style.dim(style.strike(line))
          : item.status === "in_progress"
          ? style.bold(line)
          : line),
    );
  }
  return lines.join("\n");
}

/**
 * The printer's events with the plan shown: the checklist of a todo_write call prints right after the call's
 * result line (the newest list, when one call batch wrote it more than once).
 */
export function withPlanChecklist<E extends AgentEvents & { block(text: string): void }>(
  printer: E,
  render: (items: readonly TodoItem[]) => string,
): E {
  let pending: readonly TodoItem[] | undefined;
  const toolEnd = printer.toolEnd;
  const events: Pick<AgentEvents, "plan" | "toolEnd"> = {
    plan: (items) => void (pending = items),
    toolEnd: (call, outcome) => {
      toolEnd?.(call, outcome);
      if (pending) printer.block(render(pending));
      pending = undefined;
    },
  };
  return Object.assign(printer, events);
}

/** REPL row: `/todo` shows the session's todo list (the model writes it with todo_write). */
export function todoSlashCommand(): SlashCommand {
  return {
    name: "/todo",
    help: "show the session's todo list (the model keeps it with todo_write)",
    run: (_a, { conversation, out, style }) => {
      const items = conversation().agent.session.todos;
      if (!items.length) return void out.write("the todo list is empty\n");
      out.write(todoChecklist(items, { style }) + "\n");
    },
  };
}
