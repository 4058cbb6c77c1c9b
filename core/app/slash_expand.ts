// `/name args` for a custom command or a skill, expanded the same way in every front.
import { expandCommand, type Expansion, loadSkillBody, runShellLine } from "../extensions/mod.ts";
import { displayPath } from "../workspace/mod.ts";
import type { NaviApp } from "./app.ts";
import type { Conversation } from "./conversation.ts";

/** What `/name args` expanded to. */
export interface SlashExpansion extends Expansion {
  /** A custom command or a skill. */
  kind: "command" | "skill";
  /** Its name (without the slash). */
  name: string;
}

/**
 * Expand `line` when it is `/<command> args` or `/<skill> args` (a user-invocable skill): the prompt for the
 * model, with `!` lines run through the conversation's approval policy and the sandbox (not when the folder is
 * untrusted). Undefined when the line names neither. `@path` mentions stay in the text for the mention pipeline.
 */
export async function expandSlash(
  app: NaviApp,
  convo: Conversation,
  line: string,
  opts: { signal: AbortSignal; onOutput?: (chunk: string) => void },
): Promise<SlashExpansion | undefined> {
  const m = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m) return undefined;
  const [, name, args = ""] = m;
  const ctx = {
    trusted: app.project?.trusted ?? false,
    workspace: app.workspace,
    run: (command: string) =>
      runShellLine(command, {
        registry: app.registry,
        policy: convo.policy,
        workspace: app.workspace,
        sandbox: app.sandbox,
        childEnv: () => app.childEnv(),
        signal: opts.signal,
        onOutput: opts.onOutput,
      }),
  };
  const cmd = app.extensions.command(name);
  if (cmd) return { kind: "command", name, ...(await expandCommand(cmd, args, ctx)) };
  const skill = app.extensions.skill(name);
  if (!skill?.userInvocable) return undefined;
  const body = await loadSkillBody(skill);
  const expanded = await expandCommand({ ...skill, body: body.body }, args, ctx);
  const files = body.files.length ? `\nFiles in its folder: ${body.files.join(", ")}` : "";
  const text = [
    `<skill name="${skill.name}" path="${displayPath(app.workspace, skill.file)}">`,
    `The user activated the skill ${skill.name}. Its folder is ${body.dir}; paths it mentions are relative to it.${files}`,
    "",
    expanded.text,
    "</skill>",
  ].join("\n");
  return { kind: "skill", name, text, notes: expanded.notes };
}
