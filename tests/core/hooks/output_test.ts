// What a hook said, read as Claude Code's contract defines it: exit codes, JSON on stdout, plain stdout for
// the context events; and the verdicts of one event's hooks combined (deny over ask over allow).
import { assertEquals } from "../../helpers.ts";
import { combine, readDecision, readRun } from "../../../core/hooks/output.ts";
import type { HookRunOutput } from "../../../core/hooks/types.ts";

const run = (code: number | null, stdout = "", stderr = "", ended?: string): HookRunOutput => ({
  code,
  stdout,
  stderr,
  ms: 5,
  ...(ended ? { ended } : {}),
});

Deno.test("exit 2 blocks with stderr; another code is a one-line non-blocking error; 0 with nothing is ok", () => {
  assertEquals(readRun("PreToolUse", run(2, "", "no rm here\n"), "guard.sh"), { block: "no rm here" });
  assertEquals(readRun("PreToolUse", run(2), "guard.sh"), { block: "blocked by hook guard.sh" });
  assertEquals(readRun("PostToolUse", run(1, "", "line one\nline two\n"), "fmt"), {
    error: "hook fmt exited 1: line one line two",
  });
  assertEquals(readRun("PreToolUse", run(127, "", "bash: nope: command not found"), "nope"), {
    error: "hook nope exited 127: bash: nope: command not found",
  });
  assertEquals(readRun("PreToolUse", run(0), "x"), {});
});

Deno.test("a hook ended at its timeout, or stopped, is a non-blocking error that says so", () => {
  assertEquals(readRun("Stop", run(null, "", "", "timeout"), "sleep 30"), {
    error: "hook sleep 30 timed out",
  });
  assertEquals(readRun("Stop", run(null, "", "", "aborted"), "sleep 30"), {
    error: "hook sleep 30 was stopped",
  });
});

Deno.test("plain stdout is context for UserPromptSubmit and SessionStart only", () => {
  assertEquals(readRun("UserPromptSubmit", run(0, "ticket 42\n"), "x"), { context: "ticket 42" });
  assertEquals(readRun("SessionStart", run(0, "branch main\n"), "x"), { context: "branch main" });
  assertEquals(readRun("PreToolUse", run(0, "just talking\n"), "x"), {});
  assertEquals(readRun("UserPromptSubmit", run(0, "{not json"), "x"), { context: "{not json" });
});

Deno.test("JSON output: permissionDecision with its reason, updatedInput, additionalContext, systemMessage", () => {
  const out = JSON.stringify({
    systemMessage: "checked by policy",
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "no network tools",
      updatedInput: { command: "ls" },
      additionalContext: "see POLICY.md",
    },
  });
  assertEquals(readRun("PreToolUse", run(0, out), "x"), {
    message: "checked by policy",
    permission: "deny",
    reason: "no network tools",
    updatedInput: { command: "ls" },
    context: "see POLICY.md",
  });
});

Deno.test("JSON output: decision block with reason, continue false with stopReason, the older approve", () => {
  assertEquals(readDecision({ decision: "block", reason: "tests fail" }), {
    block: "tests fail",
    reason: "tests fail",
  });
  assertEquals(readDecision({ continue: false, stopReason: "budget spent" }), { stop: "budget spent" });
  assertEquals(readDecision({ decision: "approve" }), { permission: "allow" });
  assertEquals(readDecision({ hookSpecificOutput: { permissionDecision: "maybe" } }), {});
  assertEquals(readDecision({ hookSpecificOutput: { updatedInput: ["not", "an", "object"] } }), {});
  assertEquals(readDecision("deny"), {});
  assertEquals(readDecision(null), {});
});

Deno.test("combined: deny beats ask beats allow, whatever the order; blocks and contexts are all kept", () => {
  const all = combine([
    { permission: "allow", reason: "fine" },
    { permission: "deny", reason: "secret file" },
    { permission: "ask", reason: "unsure" },
    { block: "first" },
    { block: "second", context: "c1" },
    { context: "c2", error: "hook y exited 1" },
  ]);
  assertEquals(all, {
    ran: 6,
    permission: "deny",
    reason: "secret file",
    block: "first\nsecond",
    context: ["c1", "c2"],
    messages: ["hook y exited 1"],
  });
  assertEquals(combine([{ permission: "ask" }, { permission: "allow" }]).permission, "ask");
  assertEquals(combine([]), { ran: 0, context: [], messages: [] });
});
