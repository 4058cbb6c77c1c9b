import type { Grant } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { table } from "../style.ts";

/** What a session permission covers, in words. */
export function describeGrant(g: Grant): string {
  if (g.outside) return `${g.tool} outside the workspace`;
  if (g.prefix) return `${g.tool} commands starting with \`${g.prefix}\``;
  return `every ${g.tool} call`;
}

/** REPL row: `/permissions [revoke <n>|clear]`: what was allowed for this session, and taking it back. */
export function permissionsSlashCommand(): SlashCommand {
  return {
    name: "/permissions",
    subcommands: ["list", "revoke", "clear"],
    help: 'what you allowed for this session (answers "always"); revoke <n> or clear takes it back',
    run: (args, { conversation, out }) => {
      const { policy } = conversation();
      const [sub = "list", arg] = args.split(/\s+/).filter(Boolean);
      if (sub === "clear") {
        out.write(`revoked ${policy.revoke()} session permission(s)\n`);
        return;
      }
      if (sub === "revoke") {
        const id = Number(arg);
        const grant = policy.grants().find((g) => g.id === id);
        if (!grant) {
          out.write(`no session permission number ${arg ?? ""}; /permissions lists them\n`);
          return;
        }
        policy.revoke(id);
        out.write(`revoked: ${describeGrant(grant)}\n`);
        return;
      }
      const grants = policy.grants();
      out.write(
        grants.length
          ? table(grants.map((g) => [String(g.id), describeGrant(g)])) +
            "\n(/permissions revoke <n> takes one back; allow rules in config.json are not listed here)\n"
          : "nothing allowed for this session yet (answer a or p at an approval question)\n",
      );
    },
  };
}
