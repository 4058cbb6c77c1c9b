import { browserCommand, openInBrowser } from "../../../core/cli/browser.ts";
import { assertEquals } from "../../helpers.ts";

const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });

Deno.test("the browser command: $BROWSER's first entry with its arguments, else the platform opener", () => {
  assertEquals(browserCommand(env({ BROWSER: "firefox --new-window:chromium" })), [
    "firefox",
    "--new-window",
  ]);
  assertEquals(browserCommand(env({})), Deno.build.os === "darwin" ? ["open"] : ["xdg-open"]);
});

Deno.test("an authorization URL that is not http(s) is printed but never opened", () => {
  let shown = "";
  openInBrowser(new URL("file:///etc/passwd"), {
    server: "evil",
    write: (t) => (shown += t),
    env: env({ BROWSER: "/nonexistent/should-not-run" }),
  });
  assertEquals(
    shown,
    "Log in to evil in your browser. If none opens, open this URL:\n  file:///etc/passwd\n" +
      "(not opened: the server's authorization URL is not http or https)\n",
  );
});
