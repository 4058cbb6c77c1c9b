// What one command hook on PreToolUse adds to a tool call (`deno task bench`): the same read-only tool call
// through the ToolCallRunner without hooks (baseline) and with one user-level hook (`cat > /dev/null`: it
// reads its input and exits 0, unconfined, the cost of spawning bash and the JSON round trip).
import { z } from "zod";
import {
  ApprovalPolicy,
  defineTool,
  Hooks,
  loadHooks,
  Session,
  ToolCallRunner,
  ToolRegistry,
} from "../core/mod.ts";

const home = await Deno.makeTempDir({ prefix: "navi-bench-hooks-" });
const ws = await Deno.makeTempDir({ prefix: "navi-bench-hooks-ws-" });
const registry = new ToolRegistry();
registry.register(defineTool({
  name: "echo_text",
  description: "- Echoes a text.",
  parameters: z.object({ text: z.string() }),
  approval: "read_only",
  handler: ({ text }) => ({ ok: true, text }),
}));
const config = JSON.stringify({
  hooks: { PreToolUse: [{ matcher: "echo_text", hooks: [{ type: "command", command: "cat > /dev/null" }] }] },
});
await Deno.writeTextFile(`${home}/config.json`, config);
const path = `${home}/config.json`;
const loaded = await loadHooks([{
  path,
  text: config,
  source: { file: path, level: "user", vocabulary: "navi" },
}]);
if (loaded.problems.length) throw new Error(loaded.problems.join("\n"));

function runner(withHook: boolean): ToolCallRunner {
  const session = Session.create(home, { cwd: ws });
  const hooks = new Hooks({
    commands: withHook ? loaded.hooks : [],
    workspace: ws,
    childEnv: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
  });
  return new ToolCallRunner({
    registry,
    policy: new ApprovalPolicy({ mode: "ask" }),
    session,
    offered: () => true,
    workspace: ws,
    hooks: hooks.session({ sessionId: session.meta.id, transcriptPath: session.file, mode: () => "ask" }),
  });
}

const signal = new AbortController().signal;
let n = 0;
const call = () => [{ id: `c${n++}`, name: "echo_text", arguments: '{"text":"hi"}' }];
const plain = runner(false);
const hooked = runner(true);
await hooked.run(call(), signal);

Deno.bench({
  name: "tool call without hooks",
  group: "PreToolUse hook",
  baseline: true,
  fn: async () => void await plain.run(call(), signal),
});

Deno.bench({
  name: "tool call with one command hook on PreToolUse",
  group: "PreToolUse hook",
  fn: async () => void await hooked.run(call(), signal),
});
