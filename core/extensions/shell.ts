// A command's !`...` line, run the way the model's bash calls run: the bash tool, the approval policy, the sandbox.
import type { ApprovalPolicy } from "../approval/mod.ts";
import type { CommandSandbox, ToolRegistry } from "../tool/mod.ts";

/** What running a shell line needs. */
export interface ShellLineContext {
  /** Where the bash tool is. */
  registry: Pick<ToolRegistry, "get" | "invoke">;
  /** Decides whether the line may run (asks the user in ask mode, refuses without a person). */
  policy: ApprovalPolicy;
  /** The workspace the line runs in. */
  workspace: string;
  /** The OS sandbox bash runs in. */
  sandbox?: CommandSandbox;
  /** The environment of child processes (navi's secrets removed). */
  childEnv?: () => Record<string, string>;
  /** Ctrl-C. */
  signal: AbortSignal;
  /** Live output for the user. */
  onOutput?(chunk: string): void;
}

/**
 * Run one shell line with the bash tool after the approval policy allowed it; returns the text to inline: the
 * output, or a bracketed line saying why it did not run or how it failed.
 */
export async function runShellLine(command: string, ctx: ShellLineContext): Promise<string> {
  const tool = ctx.registry.get("bash");
  if (!tool) return `[not run: !\`${command}\`: the bash tool is not available]`;
  const args = { command };
  const decision = await ctx.policy.decide({ tool: "bash", approval: tool.approval, args });
  if (!decision.allowed) return `[not run: !\`${command}\`: ${decision.error ?? "not approved"}]`;
  const result = await ctx.registry.invoke("bash", args, {
    workspace: ctx.workspace,
    signal: ctx.signal,
    confirm: (req) => ctx.policy.confirm("bash", req.detail),
    onOutput: ctx.onOutput,
    childEnv: ctx.childEnv,
    sandbox: ctx.sandbox,
  });
  const output = typeof result.output === "string" ? result.output : "";
  return result.ok
    ? output
    : `${output}${output && !output.endsWith("\n") ? "\n" : ""}[!\`${command}\`: ${result.error}]`;
}
