// navi's REPL in a real pseudo-terminal (tmux) against a scripted LLM server, with its own home and workspace.
import { startLlmServer, type Step } from "./llm_server.ts";
import { Pty } from "./pty.ts";
import { llmConfig, MAIN, tempDir, writeConfig } from "../helpers.ts";

/** Start `navi` (plus `args`) in a PTY; resolves once the banner shows. Dispose to stop everything. */
export async function naviInPty(
  steps: Step[],
  opts: {
    config?: Record<string, unknown>;
    env?: Record<string, string>;
    args?: string[];
    wait?: string;
    models?: string[];
    /** The terminal's size (default 200x50). */
    width?: number;
    height?: number;
    /** Prepare the home directory (sessions, plugins) before navi starts. */
    before?: (home: string, ws: string) => Promise<void>;
  } = {},
) {
  const home = await tempDir();
  const ws = await tempDir();
  const server = startLlmServer(steps, { models: opts.models });
  await writeConfig(home.path, llmConfig(server.url, opts.config));
  await opts.before?.(home.path, ws.path);
  const pty = await Pty.start([Deno.execPath(), "run", "-A", MAIN, ...(opts.args ?? [])], {
    env: { NAVI_HOME: home.path, NO_COLOR: "1", ...opts.env },
    cwd: ws.path,
    width: opts.width,
    height: opts.height,
  });
  await pty.waitFor(opts.wait ?? "/help for commands");
  return {
    pty,
    server,
    home: home.path,
    ws: ws.path,
    lastMessage: (i: number) =>
      (server.requests[i].body.messages as { role: string; content: string }[]).at(-1)!,
    async [Symbol.asyncDispose]() {
      await pty.close();
      await server.close();
      await home[Symbol.asyncDispose]();
      await ws[Symbol.asyncDispose]();
    },
  };
}
