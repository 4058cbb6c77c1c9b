import type { NaviApp } from "../mod.ts";
import type { MentionProvider } from "./mentions.ts";

/**
 * MCP resources as `@<server>:<uri>` mentions: Tab completes from the servers' resource lists and templates,
 * a mention attaches the resource's contents (`resources/read`). Tokens that do not start with a configured
 * server's name are left to the other providers.
 */
export function mcpMentions(
  app: Pick<NaviApp, "mcpStates" | "mcpCatalogs" | "readResource">,
): MentionProvider {
  const server = (token: string) => {
    const name = /^([A-Za-z0-9_-]+):/.exec(token)?.[1];
    return name && app.mcpStates().some((s) => s.name === name) ? name : undefined;
  };
  return {
    accepts: (token) => server(token) !== undefined,
    async complete(partial) {
      const { mentionCandidates } = await import("../mod.ts");
      return mentionCandidates(await app.mcpCatalogs()).map((m) => m.slice(1)).filter((m) =>
        m.startsWith(partial)
      );
    },
    async expand(token) {
      const name = server(token)!;
      const uri = token.slice(name.length + 1);
      const block = await app.readResource(name, uri).catch((err: Error) => {
        throw new Error(`@${token}: ${err.message.replace(/\s+/g, " ").slice(0, 200)}`);
      });
      return { label: `${token} (${block.chars} chars)`, text: block.text };
    },
  };
}
