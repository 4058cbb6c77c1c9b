// A real pseudo-terminal for tests: a program runs in a detached tmux session on a private socket; tests type,
// paste (bracketed) and read the screen. Every wait is bounded.

async function tmux(socket: string, args: string[], stdin?: string): Promise<string> {
  const child = new Deno.Command("tmux", {
    args: ["-L", socket, "-f", "/dev/null", ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`tmux ${args[0]} failed: ${dec.decode(out.stderr).trim()}`);
  return dec.decode(out.stdout);
}

function quote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Whether tmux is installed (tests that need it fail with a clear message otherwise). */
export function haveTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

/** A program running in a tmux pane (200x50 unless told otherwise). */
export class Pty implements AsyncDisposable {
  readonly socket: string;
  /** Where the shell around the program writes its exit status. */
  #statusFile: string;
  #closed = false;

  private constructor(socket: string, statusFile: string) {
    this.socket = socket;
    this.#statusFile = statusFile;
  }

  /** Start `cmd` (argv) in a new detached session with `env` added; the pane stays after the program exits. */
  static async start(
    cmd: string[],
    opts: {
      env?: Record<string, string>;
      cwd?: string;
      width?: number;
      height?: number;
      /** Accept clipboard writes (OSC 52) from the program into tmux's paste buffers, so they can be seen. */
      clipboard?: boolean;
      /** Send the program's stderr to this file instead of the terminal. */
      stderrFile?: string;
    } = {},
  ): Promise<Pty> {
    if (!haveTmux()) throw new Error("tmux is not installed (apt-get install -y tmux; .ci/run does this)");
    const socket = `navi-test-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const env = Object.entries({ TERM: "xterm-256color", ...opts.env }).map(([k, v]) => `${k}=${quote(v)}`);
    // The shell stays the program's parent and records its status: tmux (3.3a) sometimes leaves an exited
    // program unreaped, so the pane is dead but its status never known.
    const statusFile = await Deno.makeTempFile({ prefix: "navi-pty-status-" });
    const line = `cd ${quote(opts.cwd ?? Deno.cwd())} && env ${env.join(" ")} ${cmd.map(quote).join(" ")}${
      opts.stderrFile ? ` 2>${quote(opts.stderrFile)}` : ""
    }; echo $? > ${quote(statusFile)}`;
    await tmux(socket, [
      "new-session",
      "-d",
      "-s",
      "t",
      "-x",
      String(opts.width ?? 200),
      "-y",
      String(opts.height ?? 50),
      "sh",
      "-c",
      line,
    ]);
    const pty = new Pty(socket, statusFile);
    await tmux(socket, ["set-option", "-t", "t", "remain-on-exit", "on"]);
    await tmux(socket, ["set-option", "-t", "t", "history-limit", "20000"]);
    if (opts.clipboard) await tmux(socket, ["set-option", "-g", "set-clipboard", "on"]);
    return pty;
  }

  /** Send tmux key names (`Enter`, `C-c`, `Escape`, `M-Enter`, `Up`...). */
  async keys(...names: string[]): Promise<void> {
    await tmux(this.socket, ["send-keys", "-t", "t", ...names]);
  }

  /** Type text literally (as keystrokes, not a paste). */
  async type(text: string): Promise<void> {
    await tmux(this.socket, ["send-keys", "-t", "t", "-l", text]);
  }

  /** Paste text the way a terminal does: bracketed when the program asked for bracketed paste. */
  async paste(text: string): Promise<void> {
    await tmux(this.socket, ["load-buffer", "-b", "p", "-"], text);
    await tmux(this.socket, ["paste-buffer", "-p", "-d", "-b", "p", "-t", "t"]);
  }

  /** Append every byte the program writes from now on to `file` (raw: escape sequences included). */
  async recordOutput(file: string): Promise<void> {
    await tmux(this.socket, ["pipe-pane", "-O", "-t", "t", `cat >> ${quote(file)}`]);
  }

  /** Resize the terminal (the program gets SIGWINCH). */
  async resize(width: number, height: number): Promise<void> {
    await tmux(this.socket, ["resize-window", "-t", "t", "-x", String(width), "-y", String(height)]);
  }

  /** The pane's title (set by OSC 0 / OSC 2). */
  async title(): Promise<string> {
    return (await tmux(this.socket, ["display", "-p", "-t", "t", "#{pane_title}"])).trim();
  }

  /** tmux's paste buffers (where OSC 52 clipboard writes land with `clipboard`). */
  async buffers(): Promise<string> {
    return await tmux(this.socket, ["list-buffers"]);
  }

  /** The program's pid (the child of the shell that runs it in the pane), once it runs. */
  async programPid(): Promise<number> {
    const shell = (await tmux(this.socket, ["display", "-p", "-t", "t", "#{pane_pid}"])).trim();
    const children = await Deno.readTextFile(`/proc/${shell}/task/${shell}/children`).catch(() => "");
    return Number(children.trim().split(/\s+/)[0]) || 0;
  }

  /** The visible screen, lines joined where the terminal wrapped them (`all`: the scrollback too). */
  async screen(opts: { all?: boolean } = {}): Promise<string> {
    return await tmux(this.socket, ["capture-pane", "-p", "-J", "-t", "t", ...(opts.all ? ["-S", "-"] : [])]);
  }

  /** The screen row by row as the terminal holds it (wrapped rows not joined); `all`: the scrollback too. */
  async rows(opts: { all?: boolean } = {}): Promise<string[]> {
    return (await tmux(this.socket, ["capture-pane", "-p", "-t", "t", ...(opts.all ? ["-S", "-"] : [])]))
      .split("\n");
  }

  /** The visible screen with its colour and style codes (SGR), as the program left them. */
  async styled(): Promise<string> {
    return await tmux(this.socket, ["capture-pane", "-p", "-e", "-J", "-t", "t", "-S", "-"]);
  }

  /** Wait until the screen (scrollback included) matches; fails after `ms` with the screen in the message. */
  async waitFor(pattern: RegExp | string, ms = 15_000): Promise<string> {
    const end = Date.now() + ms;
    let last = "";
    while (Date.now() < end) {
      last = await this.screen({ all: true });
      if (typeof pattern === "string" ? last.includes(pattern) : pattern.test(last)) return last;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`screen did not show ${pattern} within ${ms} ms; it shows:\n${last}`);
  }

  /** The program's exit status once it has exited, else undefined. */
  async exitStatus(): Promise<number | undefined> {
    const text = (await Deno.readTextFile(this.#statusFile)).trim();
    return text ? Number(text) : undefined;
  }

  /** Wait for the program to exit (bounded); returns its status. */
  async waitExit(ms = 15_000): Promise<number> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const status = await this.exitStatus();
      if (status !== undefined) return status;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the program did not exit within ${ms} ms; screen:\n${await this.screen({ all: true })}`);
  }

  /** Kill the tmux server (and the program with it). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await tmux(this.socket, ["kill-server"]).catch(() => {});
    await Deno.remove(this.#statusFile).catch(() => {});
    const dir = `${Deno.env.get("TMUX_TMPDIR") ?? "/tmp"}/tmux-${Deno.uid()}`;
    await Deno.remove(`${dir}/${this.socket}`).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
