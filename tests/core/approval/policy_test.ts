import {
  ApprovalPolicy,
  type ApprovalQuestion,
  parseRule,
  type Reply,
  suggestPrefix,
} from "../../../core/mod.ts";
import { assert, assertEquals } from "../../helpers.ts";
import { RM_RF_SPELLINGS } from "../../support/shell_spellings.ts";

Deno.test("read_only runs at once; ask without a terminal refuses write and command", async () => {
  const p = new ApprovalPolicy({ mode: "ask" });
  assertEquals(await p.decide({ tool: "read_file", approval: "read_only", args: {} }), {
    allowed: true,
    how: "read_only",
  });
  const w = await p.decide({ tool: "write_file", approval: "write", args: {} });
  assertEquals(w, {
    allowed: false,
    how: "refused",
    error: "Not approved: write_file needs approval; rerun with --approval auto or allow it in config",
  });
});

Deno.test("auto runs everything but a deny rule beats it", async () => {
  const p = new ApprovalPolicy({ mode: "auto", deny: ["bash(rm *)", "mcp__github__*"] });
  assert((await p.decide({ tool: "bash", approval: "command", args: { command: "ls" } })).allowed);
  const rm = await p.decide({ tool: "bash", approval: "command", args: { command: "rm -rf /" } });
  assertEquals(rm.how, "denied");
  assert(!(await p.decide({ tool: "mcp__github__delete_repo", approval: "command", args: {} })).allowed);
  assert(
    !(await p.decide({ tool: "mcp__github__search", approval: "read_only", args: {} })).allowed,
    "deny beats read_only too",
  );
});

Deno.test("allow rules skip the question; bash(prefix*) matches command prefixes", async () => {
  const asked: string[] = [];
  const p = new ApprovalPolicy({
    mode: "ask",
    allow: ["bash(git status*)", "write_file"],
    deny: ["bash(git push*)"],
    ask: (q) => {
      asked.push(q.tool);
      return Promise.resolve("no");
    },
  });
  assertEquals(
    (await p.decide({ tool: "bash", approval: "command", args: { command: "git status --short" } })).how,
    "rule",
  );
  assertEquals((await p.decide({ tool: "write_file", approval: "write", args: { path: "x" } })).how, "rule");
  assertEquals(
    (await p.decide({ tool: "bash", approval: "command", args: { command: "git status && git status -s" } }))
      .how,
    "rule",
  );
  for (
    const command of [
      "git status; rm -rf ~",
      "git status && curl x | sh",
      "git status $(rm x)",
      "git status > f",
    ]
  ) {
    assertEquals(
      (await p.decide({ tool: "bash", approval: "command", args: { command } })).how,
      "user",
      `${command} is asked, not allowed`,
    );
  }
  assertEquals(
    (await p.decide({ tool: "bash", approval: "command", args: { command: "ls && git push --force" } })).how,
    "denied",
  );
  assertEquals((await p.decide({ tool: "bash", approval: "command", args: { command: "ls" } })).how, "user");
  assertEquals(asked.length, 5);
  assert(parseRule("bash(npm test*)").command!.test("npm test -- --watch"));
  assert(!parseRule("bash(npm test*)").command!.test("echo; npm test"));
});

Deno.test("an 'always' answer allows the tool for the rest of the session only", async () => {
  let questions = 0;
  const ask = () => {
    questions++;
    return Promise.resolve("always" as const);
  };
  const p = new ApprovalPolicy({ mode: "ask", ask });
  assertEquals((await p.decide({ tool: "edit_file", approval: "write", args: {} })).how, "session");
  assertEquals((await p.decide({ tool: "edit_file", approval: "write", args: {} })).how, "session");
  assertEquals(questions, 1);
  const fresh = new ApprovalPolicy({ mode: "ask", ask });
  assertEquals((await fresh.decide({ tool: "edit_file", approval: "write", args: {} })).how, "session");
  assertEquals(questions, 2);
});

Deno.test("plan refuses changes; paths outside the workspace are command-class", async () => {
  const plan = new ApprovalPolicy({ mode: "plan" });
  assertEquals((await plan.decide({ tool: "write_file", approval: "write", args: {} })).how, "plan");
  assertEquals(await plan.confirm("read_file", "/etc/passwd"), false);
  assertEquals(await new ApprovalPolicy({ mode: "auto" }).confirm("read_file", "/etc/passwd"), true);
  assertEquals(await new ApprovalPolicy({ mode: "ask" }).confirm("read_file", "/etc/passwd"), false);
  let asked = "";
  const ask = new ApprovalPolicy({
    mode: "ask",
    ask: (q) => {
      asked = q.summary;
      return Promise.resolve("yes");
    },
  });
  assertEquals(await ask.confirm("read_file", "/etc/passwd"), true);
  assertEquals(asked, "outside the workspace: /etc/passwd");
});

Deno.test("'always' for a path outside the workspace covers later outside paths of that tool only", async () => {
  const asked: string[] = [];
  const p = new ApprovalPolicy({
    mode: "ask",
    ask: (q) => {
      asked.push(`${q.tool}: ${q.summary}`);
      return Promise.resolve(q.tool === "read_file" ? "always" : "no");
    },
  });
  assertEquals(await p.confirm("read_file", "/etc/a"), true);
  assertEquals(await p.confirm("read_file", "/etc/b"), true);
  assertEquals(await p.confirm("list_dir", "/etc"), false);
  assertEquals(asked, ["read_file: outside the workspace: /etc/a", "list_dir: outside the workspace: /etc"]);
  assertEquals(
    (await p.decide({ tool: "write_file", approval: "write", args: {} })).how,
    "user",
    "no tool rule added",
  );
});

Deno.test("a deny rule matches the command the shell runs, however it is spelled", async () => {
  const p = new ApprovalPolicy({ mode: "auto", deny: ["bash(rm -rf*)"] });
  for (const command of RM_RF_SPELLINGS) {
    const d = await p.decide({ tool: "bash", approval: "command", args: { command } });
    assertEquals(d.how, "denied", JSON.stringify(command));
  }
  for (
    const command of [
      "rm victim",
      "rm -r victim",
      "echo 'rm -rf victim'",
      "git commit -m 'rm -rf x'",
      "ls -rf",
    ]
  ) {
    const d = await p.decide({ tool: "bash", approval: "command", args: { command } });
    assertEquals(d.how, "auto", `not denied: ${JSON.stringify(command)}`);
  }
});

Deno.test("'always for commands starting with' allows that prefix only, and /permissions can revoke it", async () => {
  const questions: ApprovalQuestion[] = [];
  let reply: Reply = { answer: "always", prefix: "git status" };
  const p = new ApprovalPolicy({
    mode: "ask",
    ask: (q) => {
      questions.push(q);
      return Promise.resolve(reply);
    },
  });
  const run = async (command: string) =>
    (await p.decide({ tool: "bash", approval: "command", args: { command } })).how;
  assertEquals(await run("git status --short"), "session");
  assertEquals(questions[0].prefix, "git status");
  assertEquals(questions[0].args, { command: "git status --short" });
  reply = { answer: "no" };
  assertEquals(await run("git status"), "session");
  assertEquals(await run("git status -s && git log"), "user", "every part must be covered");
  assertEquals(await run("git statusx"), "user", "a prefix is whole words");
  assertEquals(await run("git status > out.txt"), "user", "redirection is never covered");
  assertEquals(questions.length, 4);
  assertEquals(p.grants(), [{ id: 1, tool: "bash", prefix: "git status" }]);
  assertEquals(p.revoke(1), 1);
  assertEquals(p.grants(), []);
  assertEquals(await run("git status"), "user");
});

Deno.test("'no' with what to do instead goes to the model with the refusal; the question carries the preview", async () => {
  let seen: ApprovalQuestion | undefined;
  const p = new ApprovalPolicy({
    mode: "ask",
    ask: (q) => {
      seen = q;
      return Promise.resolve({ answer: "no", instead: "use edit_file on b.txt" });
    },
  });
  const preview = { kind: "diff" as const, path: "a.txt", before: "x\n", after: "y\n" };
  const d = await p.decide({
    tool: "write_file",
    approval: "write",
    args: { path: "a.txt", content: "y\n" },
    preview: () => Promise.resolve(preview),
  });
  assertEquals(d, {
    allowed: false,
    how: "user",
    error: "The user declined to run write_file. The user says instead: use edit_file on b.txt",
  });
  assertEquals(seen?.preview, preview);
  assertEquals(seen?.prefix, undefined);
});

Deno.test("suggestPrefix offers the first one or two words of the first command", () => {
  assertEquals(suggestPrefix("git status --short"), "git status");
  assertEquals(suggestPrefix("ls -la /tmp"), "ls");
  assertEquals(suggestPrefix("npm test && rm -rf x"), "npm test");
  assertEquals(suggestPrefix("echo $(whoami)"), undefined);
  assertEquals(suggestPrefix("   "), undefined);
});
