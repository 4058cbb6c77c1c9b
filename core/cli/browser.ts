/** The command that opens a URL: `$BROWSER` (its first entry), else the platform's opener. */
export function browserCommand(env: { get(key: string): string | undefined } = Deno.env): string[] {
  const configured = env.get("BROWSER")?.split(":")[0]?.trim();
  if (configured) return configured.split(/\s+/);
  if (Deno.build.os === "darwin") return ["open"];
  if (Deno.build.os === "windows") return ["cmd", "/c", "start", ""];
  return ["xdg-open"];
}

/**
 * The browser step of an OAuth login: print the URL (so it can be opened by hand, e.g. over SSH), then try to
 * open it. The browser is not waited for; the login waits for its redirect.
 */
export function openInBrowser(
  url: URL,
  opts: { server: string; write(text: string): void; env?: { get(key: string): string | undefined } },
): void {
  opts.write(`Log in to ${opts.server} in your browser. If none opens, open this URL:\n  ${url.href}\n`);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    opts.write(`(not opened: the server's authorization URL is not http or https)\n`);
    return;
  }
  const [cmd, ...args] = browserCommand(opts.env);
  try {
    const child = new Deno.Command(cmd, {
      args: [...args, url.href],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.status.catch(() => {});
    child.unref();
  } catch {
    opts.write(`(could not start ${cmd}; open the URL yourself)\n`);
  }
}
