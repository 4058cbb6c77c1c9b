/** A program under a real terminal: a tmux server on a private socket, one window of a fixed size. */
export interface Tmux extends AsyncDisposable {
  /** Type keys (tmux send-keys syntax: "Enter", "C-c"; `literal` sends the text as it is). */
  send(keys: string, opts?: { literal?: boolean }): Promise<void>;
  /** The visible screen as text. */
  screen(): Promise<string>;
  /** The pane's title (set by OSC 0 / OSC 2). */
  title(): Promise<string>;
  /** The paste buffers (OSC 52 clipboard writes land here). */
  buffers(): Promise<string>;
}

async function tmux(socket: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return new TextDecoder().decode(out.stdout);
}

/** Start `command` in a new tmux server (clipboard writes from programs accepted, so they can be seen). */
export async function startTmux(
  command: string[],
  opts: { env?: Record<string, string>; cwd?: string; width?: number; height?: number },
): Promise<Tmux> {
  const socket = `navi-test-${crypto.randomUUID().slice(0, 8)}`;
  const env = Object.entries(opts.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const quoted = command.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  await tmux(
    socket,
    ["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", String(opts.width ?? 120)]
      .concat(["-y", String(opts.height ?? 40), ...env, ...(opts.cwd ? ["-c", opts.cwd] : []), quoted]),
  );
  await tmux(socket, ["set", "-g", "set-clipboard", "on"]);
  return {
    send: async (keys, o = {}) =>
      void await tmux(socket, ["send-keys", "-t", "t", ...(o.literal ? ["-l"] : []), keys]),
    screen: () => tmux(socket, ["capture-pane", "-p", "-t", "t"]),
    title: async () => (await tmux(socket, ["display", "-p", "-t", "t", "#{pane_title}"])).trim(),
    buffers: () => tmux(socket, ["list-buffers"]),
    [Symbol.asyncDispose]: async () => void await tmux(socket, ["kill-server"]),
  };
}
