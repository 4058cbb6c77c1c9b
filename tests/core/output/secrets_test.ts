import { type Config, RedactingStream, Secrets } from "../../../core/mod.ts";
import { assertEquals } from "../../helpers.ts";

const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k], toObject: () => vars });

Deno.test("MCP env values given as $VAR, header values and provider keys are secrets; literal env values are not", () => {
  const config = {
    providers: { p: { base_url: "http://x", api_key: "$P_KEY" } },
    mcp_servers: {
      s: { command: "x", env: { TOKEN: "$S_TOKEN", MODE: "literal-mode-value" } },
      h: { url: "http://h", headers: { Authorization: "Bearer header-literal-1234" } },
    },
  } as unknown as Config;
  const vars = { P_KEY: "provider-key-5678", S_TOKEN: "server-token-9012", OTHER: "x" };
  const secrets = Secrets.fromConfig(config, env(vars));
  assertEquals(
    secrets.redact("provider-key-5678 server-token-9012 Bearer header-literal-1234 literal-mode-value"),
    "[redacted] [redacted] [redacted] literal-mode-value",
  );
  assertEquals(secrets.childEnv(env(vars)), { OTHER: "x" });
});

Deno.test("a redacting stream holds back only what could begin a secret", () => {
  const secrets = new Secrets();
  secrets.add("abcdefgh-secret");
  const s = new RedactingStream(secrets);
  assertEquals(s.push("plain text "), "plain text ");
  assertEquals(s.push("then abc"), "then ");
  assertEquals(s.push("def"), "");
  assertEquals(s.push("gh-secret!"), "[redacted]!");
  assertEquals(s.push("abx"), "abx");
  assertEquals(s.push("a"), "");
  assertEquals(s.flush(), "a");
  assertEquals(secrets.heldBack("xx abcdefgh-secre"), 14);
  assertEquals(secrets.heldBack("xx abcdefgh-secret"), 0);
});
