// Runs bash commands through `navi -p` with the scripted LLM server and returns what each call gave the model.
import { startLlmServer } from "../../support/llm_server.ts";
import { MAIN, type RunResult, writeConfig } from "../../helpers.ts";
import { probeDirectory } from "../../../core/sandbox/mod.ts";

/** One bash call's result as the model saw it. */
export interface Outcome {
  ok: boolean;
  error?: string;
  output?: string;
  exit_code?: number;
}

/** Where navi runs and with what. */
export interface NaviRun {
  home: string;
  ws: string;
  /** The `sandbox` section (and any other config keys under `extra`). */
  sandbox?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  env?: Record<string, string>;
  /** `--approval` mode; null runs with the default (ask). */
  approval?: "auto" | null;
}

/**
 * Run `navi -p` whose model calls bash once per command (`commands` receives navi's pid), then answers
 * "done". Returns the outcomes in order and the process result.
 */
export async function bashThroughNavi(
  commands: (naviPid: number) => string[],
  run: NaviRun,
): Promise<{ outcomes: Outcome[]; result: RunResult; pid: number }> {
  let pid = 0;
  let list: string[] = [];
  const server = startLlmServer((i) => {
    if (i === 0) list = commands(pid);
    const command = list[i];
    return command === undefined
      ? { text: "done" }
      : { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command }) }] };
  });
  try {
    const config = {
      providers: { local: { base_url: server.url, api_key: "k" } },
      model: "m",
      ...(run.sandbox ? { sandbox: run.sandbox } : {}),
      ...run.extra,
    };
    await writeConfig(run.home, config);
    const approval = run.approval === null ? [] : ["--approval", run.approval ?? "auto"];
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "-p", "run the commands", ...approval],
      cwd: run.ws,
      env: { NAVI_HOME: run.home, NO_COLOR: "1", ...run.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    pid = child.pid;
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const out = await child.output().finally(() => clearTimeout(timer));
    const dec = new TextDecoder();
    const result = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
    const last = server.requests.at(-1)?.body.messages as { role: string; content: string }[] | undefined;
    const outcomes = (last ?? []).filter((m) => m.role === "tool").map((m) =>
      JSON.parse(m.content) as Outcome
    );
    return { outcomes, result, pid };
  } finally {
    await server.close();
  }
}

/** A fresh directory outside /tmp (the sandbox gives commands a private /tmp), removed on dispose. */
export async function dirOutsideTmp(): Promise<{ path: string } & AsyncDisposable> {
  const base = probeDirectory(Deno.env.get("HOME"));
  const path = await Deno.realPath(await Deno.makeTempDir({ dir: base, prefix: ".navi-sandbox-test-" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
}
