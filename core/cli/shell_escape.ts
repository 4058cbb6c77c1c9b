import type { ApprovalPolicy, ToolRegistry } from "../mod.ts";
import { formatMs } from "./printer.ts";
import type { Sink } from "../output/mod.ts";
import type { Style } from "./style.ts";

/** What `!command` needs: the bash tool, the approval policy, and where to show output. */
export interface ShellEscapeContext {
  registry: Pick<ToolRegistry, "get" | "invoke">;
  policy: ApprovalPolicy;
  workspace: string;
  childEnv?: () => Record<string, string>;
  out: Sink;
  style: Style;
  signal: AbortSignal;
}

/**
 * `!command`: run a shell command with the bash tool, through the same approval as the model's calls; its
 * output shows live. Returns the text that goes with the next message, or undefined when it did not run.
 */
export async function runShellEscape(command: string, ctx: ShellEscapeContext): Promise<string | undefined> {
  const { registry, policy, out, style } = ctx;
  const tool = registry.get("bash");
  if (!tool) {
    out.write(style.red("navi: !command needs the bash tool, which is not available") + "\n");
    return undefined;
  }
  const args = { command };
  const decision = await policy.decide({ tool: "bash", approval: tool.approval, args });
  if (!decision.allowed) {
    out.write(style.yellow(`navi: not run: ${decision.error ?? "not approved"}`) + "\n");
    return undefined;
  }
  let atLineStart = true;
  const started = performance.now();
  const result = await registry.invoke("bash", args, {
    workspace: ctx.workspace,
    signal: ctx.signal,
    confirm: (req) => policy.confirm("bash", req.detail),
    onOutput: (chunk) => {
      out.write(chunk);
      atLineStart = chunk.endsWith("\n");
    },
    childEnv: ctx.childEnv,
  });
  if (!atLineStart) out.write("\n");
  const ms = Math.round(performance.now() - started);
  const output = typeof result.output === "string" ? result.output : "";
  const status = result.ok ? "exit 0" : result.error;
  out.write(style.dim(`  ⎿ ${status} (${formatMs(ms)}); the output goes with your next message`) + "\n");
  return `The user ran a shell command:\n$ ${command}\n${output}${
    output.endsWith("\n") || !output ? "" : "\n"
  }(${status})`;
}
