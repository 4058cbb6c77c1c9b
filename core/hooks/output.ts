// Reading what a hook said: its exit code, its stdout (JSON when it starts with `{`) and stderr, as Claude
// Code's contract defines them; and combining the verdicts of the hooks of one event.
import type { HookEvent, HookOutcome, HookRunOutput, HookVerdict } from "./types.ts";

/** Events whose plain stdout (exit 0, not JSON) is added to the model's context. */
const PLAIN_CONTEXT: readonly HookEvent[] = ["UserPromptSubmit", "SessionStart"];

function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : undefined);

/**
 * The decision shape (`continue`, `stopReason`, `systemMessage`, `decision`/`reason`, `hookSpecificOutput`
 * with `permissionDecision`, `permissionDecisionReason`, `updatedInput`, `additionalContext`) read from a
 * value: a command's parsed JSON stdout or a plugin handler's return value.
 */
export function readDecision(value: unknown): HookVerdict {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const o = value as Record<string, unknown>;
  const v: HookVerdict = {};
  if (o.continue === false) v.stop = str(o.stopReason) ?? "a hook stopped navi";
  if (str(o.systemMessage)) v.message = str(o.systemMessage);
  const specific = (o.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const reason = str(specific.permissionDecisionReason) ?? str(o.reason);
  if (o.decision === "block") v.block = reason ?? "blocked by a hook";
  if (o.decision === "approve") v.permission = "allow";
  const perm = specific.permissionDecision;
  if (perm === "allow" || perm === "deny" || perm === "ask") v.permission = perm;
  if (reason && (v.permission || v.block)) v.reason = reason;
  const updated = specific.updatedInput;
  if (updated && typeof updated === "object" && !Array.isArray(updated)) {
    v.updatedInput = updated as Record<string, unknown>;
  }
  const context = str(specific.additionalContext);
  if (context) v.context = context;
  return v;
}

/** What one command hook's run means for `event` (see Claude Code's exit-code and JSON rules). */
export function readRun(event: HookEvent, run: HookRunOutput, label: string): HookVerdict {
  if (run.code === null) {
    const why = run.ended === "timeout" ? "timed out" : run.ended === "aborted" ? "was stopped" : run.ended;
    return { error: `hook ${label} ${why}` };
  }
  if (run.code === 2) return { block: run.stderr.trim() || `blocked by hook ${label}` };
  if (run.code !== 0) {
    const detail = oneLine(run.stderr) || oneLine(run.stdout);
    return { error: `hook ${label} exited ${run.code}${detail ? `: ${detail}` : ""}` };
  }
  const out = run.stdout.trim();
  if (out.startsWith("{")) {
    try {
      return readDecision(JSON.parse(out));
    } catch { /* not JSON after all: plain text */ }
  }
  return out && PLAIN_CONTEXT.includes(event) ? { context: out } : {};
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

/** The verdicts of one event's hooks together: deny over ask over allow, every block and context kept. */
export function combine(verdicts: readonly HookVerdict[]): HookOutcome {
  const out: HookOutcome = { ran: verdicts.length, context: [], messages: [] };
  const blocks: string[] = [];
  for (const v of verdicts) {
    if (v.block) blocks.push(v.block);
    if (v.permission && (!out.permission || RANK[v.permission] > RANK[out.permission])) {
      out.permission = v.permission;
      out.reason = v.reason;
    }
    if (v.updatedInput) out.updatedInput = v.updatedInput;
    if (v.context) out.context.push(v.context);
    if (v.message) out.messages.push(v.message);
    if (v.error) out.messages.push(v.error);
    if (v.stop && out.stop === undefined) out.stop = v.stop;
  }
  if (blocks.length) out.block = blocks.join("\n");
  return out;
}
