// A plugin's hook (`navi.on`) as a policy: it runs in the plugin's worker with the plugin's declared
// permissions (here none: no disk, no network) and denies write_file to `.env` with the same decision shape
// as a command hook.
import { join } from "node:path";
import { assertEquals, llmConfig, runNavi, tempDir, writeConfig } from "../../helpers.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";

const POLICY = `
export const permissions = { read: false, write: false, net: false };

export default function register(navi) {
  navi.on("PreToolUse", { matcher: "write_file|edit_file" }, (input) => {
    const path = String(input.tool_input.path ?? "");
    if (path !== ".env" && !path.endsWith("/.env")) return;
    let disk = "can read the disk";
    try {
      Deno.readTextFileSync("/etc/hostname");
    } catch (err) {
      disk = "cannot read the disk (" + err.name + ")";
    }
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "policy: .env is off limits; the policy " + disk,
      },
    };
  });
}
`;

type Msg = { role: string; content?: unknown };

Deno.test("a plugin hook denies write_file to .env; other writes go through; the hook has no disk access", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const calls = [
    { name: "write_file", arguments: JSON.stringify({ path: ".env", content: "KEY=1\n" }) },
    { name: "write_file", arguments: JSON.stringify({ path: "notes.txt", content: "fine\n" }) },
  ];
  const server = startLlmServer((_i, body): Step => {
    const done = (body.messages as Msg[]).filter((m) => m.role === "tool").length;
    return calls[done] ? { toolCalls: [calls[done]] } : { text: "done" };
  });
  try {
    await writeConfig(home.path, llmConfig(server.url));
    await Deno.mkdir(join(home.path, "plugins"));
    await Deno.writeTextFile(join(home.path, "plugins", "policy.js"), POLICY);
    const r = await runNavi(["-p", "set up", "--approval", "auto"], { home: home.path, cwd: ws.path });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(await Deno.stat(join(ws.path, ".env")).then(() => true, () => false), false);
    assertEquals(await Deno.readTextFile(join(ws.path, "notes.txt")), "fine\n");
    const tool = (server.requests[1].body.messages as Msg[]).findLast((m) => m.role === "tool");
    assertEquals(JSON.parse(String(tool?.content)), {
      ok: false,
      error: "policy: .env is off limits; the policy cannot read the disk (NotCapable)",
    });
  } finally {
    await server.close();
  }
});
