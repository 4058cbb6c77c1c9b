import { z } from "zod";
import { defineTool, ToolError } from "../core/mod.ts";

export default defineTool({
  name: "todo_write",
  description: [
    "- Writes the todo list of this session, which the user sees as a checklist: send the whole list each time, every item with its status.",
    "- Use it for work of three or more steps, or when the user gives several tasks: write the plan before starting, mark one item in_progress while you work on it and completed as soon as it is done, add items you discover.",
    "- Skip it for a single quick step or a question that needs no changes.",
  ].join("\n"),
  parameters: z.object({
    todos: z.array(z.object({
      content: z.string().trim().min(1).max(300).describe("The task, in a few words."),
      status: z.enum(["pending", "in_progress", "completed"]),
    })).max(100).describe("The whole list, in order; it replaces the previous one."),
  }),
  approval: "read_only",
  handler({ todos }, ctx) {
    if (!ctx.todos) throw new ToolError("The todo list is not available here");
    ctx.todos.write(todos.map((t) => ({ content: t.content.replace(/\s+/g, " "), status: t.status })));
    const count = (status: string) => todos.filter((t) => t.status === status).length;
    return {
      ok: true,
      pending: count("pending"),
      in_progress: count("in_progress"),
      completed: count("completed"),
    };
  },
});
