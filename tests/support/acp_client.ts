// An editor for tests: `navi acp` started as a child process and driven with the ACP SDK's own client side
// (`client()` over the child's stdio), with open buffers for `fs/*`, real terminals for `terminal/*` and
// scripted answers to permission questions.
import * as acp from "@agentclientprotocol/sdk";
import { MAIN } from "../helpers.ts";

/** What the test editor's own environment adds to the commands its terminals run. */
export const EDITOR_ENV: Record<string, string> = {
  EDITOR_ONLY: "from-the-editor",
  TEST_LLM_KEY: "sk-acp-SECRET-0123456789abcdef",
};

/** One terminal the editor runs for the agent: a real child process. */
interface Term {
  child: Deno.ChildProcess;
  output: string;
  done: Promise<Deno.CommandStatus>;
  request: acp.CreateTerminalRequest;
}

/** What the editor saw and how it answers. */
export interface Editor {
  /** The agent side, for requests (`initialize`, `session/new`, ...). */
  agent: acp.ClientContext;
  /** Every `session/update`, in order. */
  updates: acp.SessionNotification[];
  /** Every permission question, with the option picked. */
  questions: { request: acp.RequestPermissionRequest; picked: string }[];
  /** Open buffers: `fs/read_text_file` answers from here first (unsaved text), `fs/write_text_file` writes here. */
  buffers: Map<string, string>;
  /** Every fs and terminal request, as `method path-or-command`. */
  calls: string[];
  /** The terminals created, by id. */
  terminals: Map<string, Term>;
  /** The answers to the next permission questions, in order (`allow_once`, `allow_always`, `reject_once`, `cancel`). */
  answers: string[];
  /** The agent's stderr so far. */
  stderr(): string;
  /** Close stdin and wait for the agent to exit; returns its exit status. */
  close(): Promise<number>;
}

function terminals(ed: Pick<Editor, "terminals" | "calls">) {
  let n = 0;
  return {
    create(req: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
      ed.calls.push(`terminal/create ${req.command} ${(req.args ?? []).at(-1)}`);
      // Like an editor's terminal: its own environment (here one that holds an API key) plus the request's.
      const env = { ...EDITOR_ENV, ...Object.fromEntries((req.env ?? []).map((e) => [e.name, e.value])) };
      const child = new Deno.Command(req.command, {
        args: req.args ?? [],
        cwd: req.cwd ?? undefined,
        env,
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const term: Term = { child, output: "", done: child.status, request: req };
      const read = async (s: ReadableStream<Uint8Array>) => {
        for await (const c of s.pipeThrough(new TextDecoderStream())) term.output += c;
      };
      term.done = Promise.all([child.status, read(child.stdout), read(child.stderr)]).then(([s]) => s);
      const id = `term-${++n}`;
      ed.terminals.set(id, term);
      return { terminalId: id };
    },
    async wait(id: string): Promise<acp.WaitForTerminalExitResponse> {
      const s = await ed.terminals.get(id)!.done;
      return { exitCode: s.signal ? null : s.code, signal: s.signal ?? null };
    },
    output(id: string): acp.TerminalOutputResponse {
      return { output: ed.terminals.get(id)!.output, truncated: false };
    },
    kill(id: string): void {
      try {
        ed.terminals.get(id)!.child.kill("SIGKILL");
      } catch { /* already gone */ }
    },
  };
}

/**
 * Start `navi acp` in `cwd` with its own NAVI_HOME and connect the SDK's client to it. `command` runs another
 * navi (the bundle) with exactly `env`.
 */
export function startEditor(
  opts: { home: string; cwd: string; env?: Record<string, string>; command?: string[] },
): Editor {
  const [program, ...args] = opts.command ??
    [Deno.execPath(), "run", "-A", "--unstable-worker-options", MAIN, "acp"];
  const child = new Deno.Command(program, {
    args,
    cwd: opts.cwd,
    clearEnv: opts.command !== undefined,
    env: opts.command ? opts.env : { NAVI_HOME: opts.home, NO_COLOR: "1", ...opts.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const errDone = (async () => {
    for await (const c of child.stderr.pipeThrough(new TextDecoderStream())) stderr += c;
  })();
  const ed = {
    updates: [] as acp.SessionNotification[],
    questions: [] as Editor["questions"],
    buffers: new Map<string, string>(),
    calls: [] as string[],
    terminals: new Map<string, Term>(),
    answers: [] as string[],
  };
  const term = terminals(ed);
  const app = acp.client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => void ed.updates.push(params))
    .onRequest("session/request_permission", ({ params }) => {
      const picked = ed.answers.shift() ?? "reject_once";
      ed.questions.push({ request: params, picked });
      return {
        outcome: picked === "cancel" ? { outcome: "cancelled" } : { outcome: "selected", optionId: picked },
      };
    })
    .onRequest("fs/read_text_file", async ({ params }) => {
      ed.calls.push(`fs/read_text_file ${params.path}`);
      return { content: ed.buffers.get(params.path) ?? await Deno.readTextFile(params.path) };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      ed.calls.push(`fs/write_text_file ${params.path}`);
      ed.buffers.set(params.path, params.content);
      return {};
    })
    .onRequest("terminal/create", ({ params }) => term.create(params))
    .onRequest("terminal/wait_for_exit", ({ params }) => term.wait(params.terminalId))
    .onRequest("terminal/output", ({ params }) => term.output(params.terminalId))
    .onRequest("terminal/kill", ({ params }) => (term.kill(params.terminalId), {}))
    .onRequest("terminal/release", ({ params }) => {
      ed.calls.push(`terminal/release ${params.terminalId}`);
      return {};
    });
  const connection = app.connect(acp.ndJsonStream(child.stdin, child.stdout));
  return {
    ...ed,
    agent: connection.agent,
    stderr: () => stderr,
    async close() {
      connection.close();
      await child.stdin.close().catch(() => {});
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const status = await child.status;
      clearTimeout(timer);
      await errDone;
      for (const t of ed.terminals.values()) await t.done.catch(() => {});
      return status.code;
    },
  };
}

/** The updates of one kind, in order. */
export function updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(
  ed: Editor,
  kind: K,
): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
  return ed.updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind) as Extract<
    acp.SessionUpdate,
    { sessionUpdate: K }
  >[];
}

/** The text of the agent's message chunks from update `from` on. */
export function agentText(ed: Editor, from = 0): string {
  return ed.updates.slice(from).map((n) => n.update).filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => (u as { content: { text?: string } }).content.text ?? "").join("");
}
