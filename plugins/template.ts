// A navi plugin: one file (or a folder with mod.ts). navi strips the types and runs it in its own worker,
// which may do only what `permissions` grants (without it: read the workspace). Import types only; take
// everything else from `navi`. See navi.d.ts beside this file.
import type { NaviPluginApi } from "./navi.d.ts";

// What the plugin may do besides computing (a literal; config.json plugins.<name>.permissions replaces it):
// export const permissions = { read: ["$WORKSPACE"], net: ["api.example.com"] };

export default function register(navi: NaviPluginApi): void {
  navi.registerTool({
    // The name the model calls: 1-64 of a-z A-Z 0-9 _ -.
    name: "__NAME__",
    // Written for the model: what the tool does and when to use it, as "- " lines.
    description: "- Says hello to someone.",
    // Arguments, validated before the handler runs; describe each field for the model.
    parameters: navi.z.object({
      who: navi.z.string().describe("Whom to greet."),
    }),
    // read_only runs at once; write and command ask the user in the default approval mode.
    approval: "read_only",
    // Return { ok: true, ...fields } or { ok: false, error }; throwing also becomes an error for the model.
    handler: ({ who }, _ctx) => ({ ok: true, greeting: `Hello, ${who}!` }),
  });
}
