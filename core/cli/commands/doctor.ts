import {
  type Config,
  ConfigError,
  configPath,
  LlmClient,
  loadConfig,
  type NaviApp,
  pluginsDir,
  ProviderError,
} from "../../mod.ts";
import { escapeControls } from "../../output/mod.ts";
import { makeStyle } from "../style.ts";

/** The outcome of one check: what was found and, unless ok, what to do about it. */
export interface CheckResult {
  status: "ok" | "warn" | "fail" | "skip";
  detail: string;
  fix?: string;
}

/** What a check can look at. `app` is absent when config.json is invalid. */
export interface DoctorContext {
  home: string;
  config?: Config;
  configError?: string;
  app?: NaviApp;
  stdin: { isTerminal(): boolean };
  stdout: { isTerminal(): boolean };
  env: { get(key: string): string | undefined };
}

/** One line of `navi doctor`. Add a check by adding an entry to the list `doctorChecks` returns. */
export interface DoctorCheck {
  name: string;
  run(ctx: DoctorContext): CheckResult | Promise<CheckResult>;
}

const configCheck: DoctorCheck = {
  name: "config",
  run({ home, config, configError }) {
    if (configError) return { status: "fail", detail: configError, fix: "correct the field named above" };
    const file = configPath(home);
    const exists = (() => {
      try {
        return Deno.statSync(file).isFile;
      } catch {
        return false;
      }
    })();
    if (!exists) {
      return { status: "ok", detail: `${file} does not exist (defaults and OPENAI_* variables apply)` };
    }
    return { status: "ok", detail: `${file} is valid (${Object.keys(config ?? {}).length} settings)` };
  },
};

const providerCheck: DoctorCheck = {
  name: "provider",
  async run({ config, home }) {
    if (!config) return { status: "skip", detail: "config.json is invalid" };
    const llm = new LlmClient(config);
    let choice;
    try {
      choice = llm.current();
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return {
        status: "fail",
        detail: err.message,
        fix: `set OPENAI_API_KEY and OPENAI_MODEL, or write ${
          configPath(home)
        } (see the README's Configuration)`,
      };
    }
    const where = `${choice.name} (${choice.baseURL ?? "https://api.openai.com/v1"}), model ${choice.model}`;
    try {
      const models = await llm.listModels({ timeoutMs: 8000 });
      if (models.length && !models.includes(choice.model)) {
        return {
          status: "warn",
          detail: `${where}: reachable, but /models does not list ${choice.model}`,
          fix: `pick one of: ${models.slice(0, 8).join(", ")}${models.length > 8 ? ", …" : ""}`,
        };
      }
      return { status: "ok", detail: `${where}: reachable, /models lists ${models.length} models` };
    } catch (err) {
      return {
        status: "fail",
        detail: `${where}: ${(err as Error).message}`,
        fix: "check base_url, the API key and the network",
      };
    }
  },
};

const mcpCheck: DoctorCheck = {
  name: "mcp",
  async run({ app }) {
    if (!app) return { status: "skip", detail: "config.json is invalid" };
    await app.mcp.start();
    const states = app.mcp.states();
    if (!states.length) return { status: "ok", detail: "no MCP servers configured" };
    const bad = states.filter((s) => s.error);
    const good = states.filter((s) => s.status === "connected").map((s) => `${s.name} (${s.tools} tools)`);
    const detail = [
      good.length ? `connected: ${good.join(", ")}` : "",
      ...bad.map((s) => `${s.name} ${s.status}: ${s.error}`),
    ].filter(Boolean).join("; ");
    return bad.length
      ? {
        status: "fail",
        detail,
        fix: "navi mcp list shows the details; fix the command or url in config.json",
      }
      : { status: "ok", detail };
  },
};

const pluginsCheck: DoctorCheck = {
  name: "plugins",
  async run({ app, home }) {
    if (!app) return { status: "skip", detail: "config.json is invalid" };
    const reports = await app.loadPlugins();
    if (!reports.length) return { status: "ok", detail: `no plugins in ${pluginsDir(home)}` };
    const failed = reports.filter((r) => r.status === "failed");
    const loaded = reports.length - failed.length;
    const detail = [`${loaded} loaded`, ...failed.map((r) => `${r.file} failed: ${r.error}`)].join("; ");
    return failed.length
      ? { status: "fail", detail, fix: "fix or remove the failed plugin files" }
      : { status: "ok", detail };
  },
};

const terminalCheck: DoctorCheck = {
  name: "terminal",
  run({ stdin, stdout, env }) {
    const term = env.get("TERM") ?? "(unset)";
    if (!stdin.isTerminal() || !stdout.isTerminal()) {
      return {
        status: "warn",
        detail: `${
          stdin.isTerminal() ? "stdout" : "stdin"
        } is not a terminal (TERM=${term}): the REPL reads lines from the pipe`,
        fix: "run navi in a terminal for the line editor, approvals and colours",
      };
    }
    const { columns, rows } = Deno.consoleSize();
    const color = env.get("NO_COLOR") ? "colours off (NO_COLOR)" : "colours on";
    return { status: "ok", detail: `TERM=${term}, ${columns}x${rows}, ${color}` };
  },
};

const sandboxCheck: DoctorCheck = {
  name: "sandbox",
  async run({ app }) {
    if (!app) return { status: "skip", detail: "config.json is invalid" };
    const s = await app.sandbox.status();
    if (s.state === "enforced") return { status: "ok", detail: s.summary };
    if (s.state === "off") {
      return { status: "warn", detail: s.summary, fix: "bash runs unconfined; navi sandbox explains" };
    }
    return {
      status: "fail",
      detail: s.summary,
      fix: "navi sandbox shows the self-test; bash refuses until it works",
    };
  },
};

/** The checks of `navi doctor`, in order. */
export function doctorChecks(): DoctorCheck[] {
  return [configCheck, providerCheck, mcpCheck, pluginsCheck, sandboxCheck, terminalCheck];
}

/** Read config.json for the doctor without failing on it. */
export async function doctorConfig(home: string): Promise<{ config?: Config; configError?: string }> {
  try {
    return { config: await loadConfig(home) };
  } catch (err) {
    if (err instanceof ConfigError) return { configError: err.message };
    throw err;
  }
}

/** Run every check and print one line each (and what to fix); returns 1 when any check failed. */
export async function runDoctor(
  ctx: DoctorContext,
  opts: { checks: DoctorCheck[]; write(line: string): void; color?: boolean },
): Promise<number> {
  const style = makeStyle(opts.color ?? false);
  const marks = { ok: style.green("✓"), warn: style.yellow("!"), fail: style.red("✗"), skip: style.dim("-") };
  let failed = 0;
  for (const check of opts.checks) {
    let result: CheckResult;
    try {
      result = await check.run(ctx);
    } catch (err) {
      result = { status: "fail", detail: `the check itself failed: ${(err as Error).message}` };
    }
    if (result.status === "fail") failed++;
    opts.write(`${marks[result.status]} ${check.name.padEnd(9)} ${escapeControls(result.detail)}`);
    if (result.fix && result.status !== "ok") {
      opts.write(`  ${style.dim("fix:")} ${escapeControls(result.fix)}`);
    }
  }
  opts.write(failed ? `${failed} check(s) failed` : "everything looks fine");
  return failed ? 1 : 0;
}
