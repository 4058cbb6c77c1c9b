// Linux: the network namespace the sandboxed commands of one session share. A small process holds it
// (bubblewrap with a namespace of its own, running `cat` on a pipe from navi, so it ends with navi); each
// command joins it with nsenter before bubblewrap confines it. Servers a command starts in the background are
// then reachable over loopback from the session's next commands, and from nothing outside the session.

/** How a command enters the session's network namespace. */
export type NetworkEntry = { prefix: string[] } | { error: string };

interface Holder {
  child: Deno.ChildProcess;
  stdin: WritableStreamDefaultWriter<Uint8Array>;
  pid: number;
  net: string;
  joinUser: boolean;
  ended: boolean;
  stderr: Promise<string>;
  stdout?: Promise<void>;
}

const link = (path: string) => {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return undefined;
  }
};

/** The network namespace of one session: started with the first command that joins it, ended by `close`. */
export class SessionNetwork {
  #bwrap: string;
  #nsenter?: string;
  #env: Record<string, string>;
  #holder?: Promise<Holder | { error: string }>;
  #closed = false;

  /** `bwrap` holds the namespace, `nsenter` (absent: not installed) joins it. */
  constructor(opts: { bwrap: string; nsenter?: string; env: Record<string, string> }) {
    this.#bwrap = opts.bwrap;
    this.#nsenter = opts.nsenter;
    this.#env = opts.env;
  }

  /** The argv prefix that runs a command in the namespace (started now if need be), or why there is none. */
  async enter(): Promise<NetworkEntry> {
    if (!this.#nsenter) return { error: "nsenter (util-linux) not found" };
    if (this.#closed) return { error: "the session has ended" };
    let holder = await (this.#holder ??= this.#start());
    if ("pid" in holder && (holder.ended || link(`/proc/${holder.pid}/ns/net`) !== holder.net)) {
      holder = await (this.#holder = this.#start());
    }
    if ("error" in holder) return holder;
    const ns = `/proc/${holder.pid}/ns`;
    const user = holder.joinUser ? [`--user=${ns}/user`, "--preserve-credentials"] : [];
    return { prefix: [this.#nsenter, `--net=${ns}/net`, ...user, "--"] };
  }

  async #start(): Promise<Holder | { error: string }> {
    const child = new Deno.Command(this.#bwrap, {
      args: [
        "--new-session",
        "--die-with-parent",
        "--cap-drop",
        "ALL",
        "--unshare-net",
        "--ro-bind",
        "/",
        "/",
        "--",
        "/bin/sh",
        "-c",
        "echo $$; exec cat",
      ],
      clearEnv: true,
      env: this.#env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    const stderr = new Response(child.stderr).text().catch(() => "");
    const stdin = child.stdin.getWriter();
    const holder: Holder = { child, stdin, pid: 0, net: "", joinUser: false, ended: false, stderr };
    child.status.then(() => (holder.ended = true));
    const first = await firstLine(child.stdout, 5000);
    holder.stdout = first.rest;
    const pid = Number(first.line);
    const net = link(`/proc/${pid}/ns/net`);
    if (!Number.isInteger(pid) || pid <= 0 || !net || net === link("/proc/self/ns/net")) {
      await stop(holder);
      const why = (await stderr).trim().split("\n")[0];
      return { error: `the session's network namespace did not start${why ? `: ${why}` : ""}` };
    }
    Object.assign(holder, {
      pid,
      net,
      joinUser: link(`/proc/${pid}/ns/user`) !== link("/proc/self/ns/user"),
    });
    return holder;
  }

  /** End the holder (commands still in the namespace keep it until they end). Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    const holder = await this.#holder;
    this.#holder = undefined;
    if (holder && "pid" in holder) await stop(holder);
  }
}

async function stop(holder: Holder): Promise<void> {
  await holder.stdin.close().catch(() => {});
  try {
    holder.child.kill("SIGTERM");
  } catch { /* ended */ }
  await holder.child.status;
  await Promise.all([holder.stderr, holder.stdout]);
}

/** The first line of `stream` ("" after `ms`); `rest` reads and drops the rest until the stream ends. */
async function firstLine(
  stream: ReadableStream<Uint8Array>,
  ms: number,
): Promise<{ line: string; rest: Promise<void> }> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
  try {
    while (!text.includes("\n")) {
      const next = await Promise.race([reader.read(), timeout]);
      if (!next || next.done) break;
      text += next.value;
    }
  } finally {
    clearTimeout(timer);
  }
  const rest = (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  return { line: text.split("\n")[0].trim(), rest };
}
