// The sandbox of an app (`Sandbox`: its settings, its start-up check, how a command is wrapped) and of one
// session (`SessionSandbox`: the session's network namespace). Over 300 lines because the wrapping rules
// (writable paths, .git guards, network, seccomp) belong together: each is its own method.
import { isAbsolute, join, resolve } from "node:path";
import { isInside } from "../workspace/mod.ts";
import type { SandboxMode, SandboxSettings } from "../config/mod.ts";
import type { CommandSandbox, SandboxedCommand } from "../tool/mod.ts";
import { VERSION } from "../version.ts";
import { bwrapCommand, type ConfinePlan, findExecutable } from "./bwrap.ts";
import { cacheKey, cachePath, readCache, writeCache } from "./cache.ts";
import { guardGit } from "./git_guard.ts";
import { seatbeltCommand } from "./macos.ts";
import { NetworkCommands } from "./network.ts";
import { SessionNetwork } from "./netns.ts";
import { seccompFilter } from "./seccomp.ts";
import { runSelfTest, type SelfTestCheck } from "./self_test.ts";

/** Whether bash commands run confined: yes, deliberately not (`mode: "off"`), or not at all (refused). */
export type SandboxState = "enforced" | "off" | "unavailable";

/** The sandbox's state as `navi sandbox` (and `navi doctor`) report it. */
export interface SandboxStatus {
  /** The configured mode. */
  mode: SandboxMode;
  /** enforced, off, or unavailable (then bash refuses to run). */
  state: SandboxState;
  /** One line: "enforced (bubblewrap 0.8.0)", `off (sandbox.mode is "off")` or "unavailable: <reason>". */
  summary: string;
  /** The mechanism: bubblewrap (Linux) or sandbox-exec (macOS). */
  backend?: "bubblewrap" | "sandbox-exec";
  /** The mechanism's binary. */
  binary?: string;
  /** Why it is unavailable. */
  reason?: string;
  /** The self-test's lines (empty when it could not run). */
  checks: SelfTestCheck[];
  /** Whether the self-test result came from $NAVI_HOME/cache (same binary, kernel and user as when it ran). */
  cached: boolean;
  /** How long the self-test took when it ran, in milliseconds. */
  ms?: number;
}

/** What a Sandbox is made from. */
export interface SandboxOptions {
  /** navi's home: hidden from commands; holds the self-test cache. */
  home: string;
  /** The workspace: writable for commands. */
  workspace: string;
  /** The `sandbox` section of config.json. */
  settings?: SandboxSettings;
  /** navi's environment: `NAVI_BWRAP` (the bubblewrap binary), `PATH`, `HOME`, `TMPDIR`. */
  env: { get(key: string): string | undefined };
}

type Backend = { name: "bubblewrap" | "sandbox-exec"; binary: string } | { error: string };

/**
 * The OS sandbox for bash commands: checked once per process (a cached self-test), then every command is
 * wrapped so that it writes only in the workspace, the private /tmp and `sandbox.writable`, sees neither
 * navi's home nor navi's process, and has no network unless allowed. Never falls back to running unconfined:
 * in mode "auto" without a working sandbox, commands are refused.
 */
export class Sandbox implements CommandSandbox {
  #opts: SandboxOptions;
  #mode: SandboxMode;
  #network: NetworkCommands;
  #status?: Promise<SandboxStatus>;
  #filter?: Promise<string>;

  /** Nothing is checked or started until `status()` or `wrap()` is called. */
  constructor(opts: SandboxOptions) {
    this.#opts = opts;
    this.#mode = opts.settings?.mode ?? "auto";
    this.#network = new NetworkCommands(opts.settings?.network_commands);
  }

  /** The sandbox's status; the first call checks it (self-test, or its cached result), `fresh` re-runs it. */
  status(opts: { fresh?: boolean } = {}): Promise<SandboxStatus> {
    if (opts.fresh || !this.#status) this.#status = this.#check(opts.fresh ?? false);
    return this.#status;
  }

  /** Whether ask mode may run bash without asking: the sandbox is enforced and `sandbox.auto_allow` is on. */
  async autoAllows(): Promise<boolean> {
    return this.#opts.settings?.auto_allow === true && (await this.status()).state === "enforced";
  }

  /** A one-line warning when bash is not confined (off or refused), or undefined. */
  async warning(): Promise<string | undefined> {
    const status = await this.status();
    if (status.state === "off") return `warning: bash runs without a sandbox (sandbox.mode is "off")`;
    if (status.state === "unavailable") return `warning: ${this.#refusal(status)}`;
    return undefined;
  }

  /**
   * The sandbox of one session: its commands share one network namespace (loopback between them works, no
   * outside network unless allowed). `close` ends it with the session.
   */
  session(): SessionSandbox {
    return new SessionSandbox(this);
  }

  /** The session network for bubblewrap (undefined elsewhere): started with its first command. */
  async network(): Promise<SessionNetwork | undefined> {
    const status = await this.status();
    if (status.backend !== "bubblewrap" || !status.binary) return undefined;
    return new SessionNetwork({
      bwrap: status.binary,
      nsenter: findExecutable("nsenter", this.#opts.env.get("PATH")),
      env: { PATH: this.#opts.env.get("PATH") ?? "/usr/bin:/bin" },
    });
  }

  /**
   * Wrap `argv` for the sandbox; refused with one line when the sandbox is required but does not work. With
   * `net` (the session's network) a command without network joins it; without, it gets a namespace of its own.
   * `network` gives this one command the network (a hook with `"network": true`).
   */
  async wrap(
    argv: string[],
    opts: { command: string; cwd: string; net?: SessionNetwork; network?: boolean },
  ): Promise<SandboxedCommand> {
    const status = await this.status();
    if (status.state === "off") return { ok: true, argv, done: () => Promise.resolve("") };
    if (status.state !== "enforced") return { ok: false, error: this.#refusal(status) };
    const workspace = await Deno.realPath(this.#opts.workspace);
    const guard = await guardGit(workspace, { home: this.#opts.env.get("HOME") });
    if (guard.error) return { ok: false, error: `bash cannot run: ${guard.error}` };
    const network = opts.network === true || this.#opts.settings?.network === true ||
      this.#network.allow(opts.command);
    const paths = await this.paths();
    const entry = !network && opts.net ? await opts.net.enter() : undefined;
    const joined = entry && "prefix" in entry ? entry.prefix : undefined;
    const plan: ConfinePlan = {
      workspace,
      cwd: opts.cwd,
      writable: paths.writable,
      hide: paths.hidden,
      pin: guard.pin,
      readOnly: guard.readOnly,
      network,
      ...(joined ? { sharedNet: true } : {}),
    };
    const confined = await this.#confine(status, plan, argv);
    return {
      ok: true,
      argv: joined ? [...joined, ...confined] : confined,
      done: guard.after,
      ...(entry && "error" in entry
        ? {
          note:
            `navi: this command has a network of its own (${entry.error}): loopback to the session's other commands does not reach them`,
        }
        : {}),
    };
  }

  /** The extra writable directories that exist (`missing` lists the others) and the hidden ones. */
  async paths(): Promise<{ writable: string[]; missing: string[]; hidden: string[] }> {
    const home = this.#opts.env.get("HOME");
    const writable: string[] = [];
    const missing: string[] = [];
    for (const entry of this.#opts.settings?.writable ?? []) {
      const expanded = home && (entry === "~" || entry.startsWith("~/")) ? home + entry.slice(1) : entry;
      const path = isAbsolute(expanded) ? expanded : resolve(this.#opts.workspace, expanded);
      const real = await Deno.realPath(path).catch(() => undefined);
      if (real) writable.push(real);
      else missing.push(path);
    }
    const hidden = await Deno.realPath(this.#opts.home).then((p) => [p], () => []);
    return { writable, missing, hidden };
  }

  #refusal(status: SandboxStatus): string {
    const install = status.backend === "sandbox-exec" || Deno.build.os !== "linux"
      ? ""
      : "install bubblewrap (e.g. apt-get install bubblewrap) or ";
    return `bash is disabled: no working sandbox (${status.reason}); ${install}set "sandbox": { "mode": "off" } ` +
      `in ${join(this.#opts.home, "config.json")} to run commands unconfined`;
  }

  #backend(): Backend {
    const env = this.#opts.env;
    if (Deno.build.os === "linux") {
      const wanted = env.get("NAVI_BWRAP");
      const binary = findExecutable(wanted || "bwrap", env.get("PATH"));
      if (binary) return { name: "bubblewrap", binary };
      return {
        error: wanted ? `bubblewrap not found at ${wanted} (NAVI_BWRAP)` : "bubblewrap (bwrap) not on PATH",
      };
    }
    if (Deno.build.os === "darwin") {
      const binary = findExecutable("/usr/bin/sandbox-exec", undefined);
      return binary ? { name: "sandbox-exec", binary } : { error: "/usr/bin/sandbox-exec not found" };
    }
    return { error: `navi has no sandbox for ${Deno.build.os}` };
  }

  async #check(fresh: boolean): Promise<SandboxStatus> {
    const mode = this.#mode;
    if (mode === "off") {
      return { mode, state: "off", summary: `off (sandbox.mode is "off")`, checks: [], cached: false };
    }
    const backend = this.#backend();
    const unavailable = (reason: string, more: Partial<SandboxStatus> = {}): SandboxStatus => ({
      mode,
      state: "unavailable",
      summary: `unavailable: ${reason}`,
      reason,
      checks: [],
      cached: false,
      ...more,
    });
    if ("error" in backend) return unavailable(backend.error);
    const found = { backend: backend.name, binary: backend.binary };
    const key = await cacheKey(backend.binary, VERSION).catch(() => undefined);
    const file = cachePath(this.#opts.home);
    const hit = fresh || !key ? undefined : await readCache(file, key);
    const enforced = (version: string, more: Partial<SandboxStatus>): SandboxStatus => ({
      mode,
      state: "enforced",
      summary: `enforced (${backend.name}${version ? ` ${version}` : ""})`,
      checks: [],
      cached: false,
      ...found,
      ...more,
    });
    if (hit) return enforced(hit.version, { checks: hit.checks, cached: true, ms: hit.ms });
    const version = await this.#version(backend.binary, backend.name);
    const started = performance.now();
    let checks: SelfTestCheck[];
    try {
      checks = await this.#selfTest(found);
    } catch (err) {
      return unavailable(`the self-test could not run: ${(err as Error).message}`, found);
    }
    const ms = Math.round(performance.now() - started);
    const failed = checks.find((c) => !c.ok && !c.optional);
    if (failed) {
      return unavailable(`self-test: ${failed.name}: no (${failed.detail})`, { ...found, checks, ms });
    }
    if (key) await writeCache(file, { key, result: { version, checks, ms } });
    return enforced(version, { checks, ms });
  }

  /** The self-test, its commands in one test session's network namespace (bubblewrap) as bash's are. */
  async #selfTest(found: Pick<SandboxStatus, "backend" | "binary">): Promise<SelfTestCheck[]> {
    const path = this.#opts.env.get("PATH") ?? "/usr/bin:/bin";
    const net = found.backend === "bubblewrap"
      ? new SessionNetwork({
        bwrap: found.binary!,
        nsenter: findExecutable("nsenter", path),
        env: { PATH: path },
      })
      : undefined;
    try {
      const entry = await net?.enter();
      const prefix = entry && "prefix" in entry ? entry.prefix : undefined;
      return await runSelfTest(
        async (plan, argv) => {
          const confined = await this.#confine(found, { ...plan, sharedNet: prefix !== undefined }, argv);
          return prefix ? [...prefix, ...confined] : confined;
        },
        {
          outside: probeDirectory(this.#opts.env.get("HOME")),
          env: { PATH: path },
          ...(entry ? { shared: "prefix" in entry ? true as const : entry.error } : {}),
        },
      );
    } finally {
      await net?.close();
    }
  }

  async #version(binary: string, name: string): Promise<string> {
    if (name !== "bubblewrap") return "";
    const out = await new Deno.Command(binary, { args: ["--version"], stdout: "piped", stderr: "null" })
      .output().catch(() => undefined);
    return new TextDecoder().decode(out?.stdout ?? new Uint8Array()).trim().replace(/^bubblewrap\s*/, "");
  }

  async #confine(found: Pick<SandboxStatus, "backend" | "binary">, plan: ConfinePlan, argv: string[]) {
    if (found.backend === "sandbox-exec") {
      return seatbeltCommand(found.binary!, plan, { argv, tmpdir: this.#opts.env.get("TMPDIR") });
    }
    const filterFile = plan.network ? undefined : await this.#filterFile();
    return bwrapCommand(found.binary!, plan, { argv, filterFile });
  }

  #filterFile(): Promise<string> {
    this.#filter ??= (async () => {
      const bytes = seccompFilter(Deno.build.arch);
      if (!bytes) throw new Error(`no seccomp filter for ${Deno.build.arch}`);
      const file = join(this.#opts.home, "cache", `sandbox-seccomp-${Deno.build.arch}.bpf`);
      const current = await Deno.readFile(file).catch(() => undefined);
      if (current && current.length === bytes.length && current.every((b, i) => b === bytes[i])) return file;
      try {
        await Deno.mkdir(join(this.#opts.home, "cache"), { recursive: true });
        const tmp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
        await Deno.writeFile(tmp, bytes);
        await Deno.rename(tmp, file);
        return file;
      } catch {
        const tmp = await Deno.makeTempFile({ prefix: "navi-seccomp-" });
        await Deno.writeFile(tmp, bytes);
        return tmp;
      }
    })();
    return this.#filter;
  }
}

/**
 * Where the self-test tries a write outside the workspace: `$HOME`, unless it is unset or under /tmp (which
 * is private and empty inside the sandbox, so a write there would fail for the wrong reason); then /var/tmp.
 */
export function probeDirectory(home: string | undefined): string {
  return home && !isInside("/tmp", resolve(home)) ? home : "/var/tmp";
}

/**
 * The sandbox as one session's commands see it: every command without network joins the session's network
 * namespace, so a server started in the background answers the next command over loopback. Closed with the
 * session.
 */
export class SessionSandbox implements CommandSandbox {
  #sandbox: Sandbox;
  #net?: Promise<SessionNetwork | undefined>;
  #closed = false;

  /** Commands are wrapped by `sandbox`; the network starts with the first command that needs it. */
  constructor(sandbox: Sandbox) {
    this.#sandbox = sandbox;
  }

  /** Wrap `argv` like `Sandbox.wrap`, in the session's network namespace. */
  async wrap(
    argv: string[],
    opts: { command: string; cwd: string; network?: boolean },
  ): Promise<SandboxedCommand> {
    if (this.#closed) return { ok: false, error: "the session has ended" };
    const net = await (this.#net ??= this.#sandbox.network().catch(() => undefined));
    return this.#sandbox.wrap(argv, { ...opts, net });
  }

  /** End the session's network namespace. Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    await (await this.#net)?.close();
  }
}
