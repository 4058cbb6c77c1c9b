import { join } from "node:path";
import {
  type Catalog,
  type McpServerState,
  SERVER_NAME_RULE,
  updateConfigFile,
  validServerName,
} from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { escapeControls } from "../../output/mod.ts";
import { makeStyle, table } from "../style.ts";

/** The status table of MCP servers; `tools` lists each server's tool names under the table. */
export function mcpTable(states: McpServerState[], color = false, opts: { tools?: boolean } = {}): string {
  if (!states.length) {
    return "no MCP servers configured (add one with: navi mcp add <name> -- <command> [args...])";
  }
  const style = makeStyle(color);
  const paint = (s: string) =>
    s === "connected" ? style.green(s) : s === "disabled" ? style.dim(s) : style.red(s);
  const rows = states.map((s) => [
    s.name,
    s.transport,
    paint(s.status),
    String(s.tools),
    escapeControls([s.error, ...s.warnings].filter(Boolean).join("; ")),
  ]);
  const main = table([["NAME", "TRANSPORT", "STATUS", "TOOLS", "ERROR"].map(style.bold), ...rows]);
  if (!opts.tools) return main;
  const lists = states.filter((s) => s.toolNames.length).map((s) =>
    `\n${style.bold(s.name)}\n${s.toolNames.map((n) => `  ${n}`).join("\n")}`
  );
  return main + lists.join("");
}

/** `navi mcp resources <server>`: its resources and resource templates. */
export function resourcesTable(server: string, catalog: Catalog): string {
  if (!catalog.resources.length && !catalog.templates.length) return `${server} lists no resources`;
  const rows = catalog.resources.map((r) => [r.uri, r.name, r.mimeType ?? ""]);
  const templates = catalog.templates.map((t) => [t.uriTemplate, t.name, t.mimeType ?? ""]);
  return [
    rows.length ? table([["URI", "NAME", "MIME"], ...rows]) : "",
    templates.length ? table([["TEMPLATE", "NAME", "MIME"], ...templates]) : "",
    `mention one as @${server}:<uri>`,
  ].filter(Boolean).join("\n\n");
}

/** Whether `command` can be started: a path to an existing file, or a name found on PATH. */
export function commandOnPath(
  command: string,
  env: { get(key: string): string | undefined } = Deno.env,
): boolean {
  const exists = (p: string) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  };
  if (command.includes("/")) return exists(command);
  return (env.get("PATH") ?? "").split(":").filter(Boolean).some((dir) => exists(join(dir, command)));
}

/** What `mcp add` writes for one server. */
export interface AddSpec {
  command?: string[];
  url?: string;
  env?: string[];
  headers?: string[];
}

function pairs(
  items: string[] | undefined,
  opts: { sep: string; what: string },
): Record<string, string> | undefined {
  const { sep, what } = opts;
  if (!items?.length) return undefined;
  const out: Record<string, string> = {};
  for (const item of items) {
    const i = item.indexOf(sep);
    if (i <= 0) throw new Error(`${what} ${JSON.stringify(item)} must look like KEY${sep}VALUE`);
    out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return out;
}

/** Add a server to config.json atomically, keeping the user's other settings. */
export async function mcpAdd(home: string, name: string, spec: AddSpec): Promise<string> {
  if (!validServerName(name)) {
    throw new Error(`invalid server name ${JSON.stringify(name)}: ${SERVER_NAME_RULE}`);
  }
  if (!spec.url && !spec.command?.length) {
    throw new Error("give either -- <command> [args...] or --url <url>");
  }
  if (spec.url && spec.command?.length) throw new Error("give either a command or --url, not both");
  const server = spec.url
    ? {
      url: spec.url,
      ...(spec.headers?.length ? { headers: pairs(spec.headers, { sep: ":", what: "header" }) } : {}),
    }
    : {
      command: spec.command![0],
      ...(spec.command!.length > 1 ? { args: spec.command!.slice(1) } : {}),
      ...(spec.env?.length ? { env: pairs(spec.env, { sep: "=", what: "env" }) } : {}),
    };
  await updateConfigFile(home, (raw) => {
    const servers = (raw.mcp_servers ?? {}) as Record<string, unknown>;
    if (servers[name]) throw new Error(`MCP server ${name} already exists in config.json; remove it first`);
    raw.mcp_servers = { ...servers, [name]: server };
  });
  const added = `added MCP server ${name} (${spec.url ? "Streamable HTTP" : "stdio"})`;
  const program = spec.command?.[0];
  if (program && !commandOnPath(program)) {
    return `${added}\nwarning: ${program} is not on PATH (nor an existing file); the server cannot start until it is`;
  }
  return added;
}

/** Remove a server from config.json atomically. */
export async function mcpRemove(home: string, name: string): Promise<string> {
  await updateConfigFile(home, (raw) => {
    const servers = (raw.mcp_servers ?? {}) as Record<string, unknown>;
    if (!servers[name]) throw new Error(`no MCP server named ${name} in config.json`);
    delete servers[name];
    raw.mcp_servers = servers;
  });
  return `removed MCP server ${name}`;
}

/** Parse `/mcp add` arguments: `<name> --url <url> [--header K:V]...` or `<name> [--env K=V]... -- <cmd> [args]`. */
export function parseAddArgs(words: string[]): { name: string; spec: AddSpec } {
  const [name, ...rest] = words;
  if (!name) throw new Error("usage: /mcp add <name> -- <command> [args...]  |  /mcp add <name> --url <url>");
  const spec: AddSpec = { env: [], headers: [] };
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w === "--") {
      spec.command = rest.slice(i + 1);
      break;
    } else if (w === "--url") spec.url = rest[++i];
    else if (w === "--header") spec.headers!.push(rest[++i]);
    else if (w === "--env") spec.env!.push(rest[++i]);
    else throw new Error(`unexpected ${JSON.stringify(w)}; put the server command after --`);
  }
  return { name, spec };
}

const MCP_HELP = [
  "/mcp status                     servers, status, tool counts and errors",
  "/mcp add <name> -- <cmd> [args] add a stdio server to config.json and connect it",
  "/mcp add <name> --url <url>     add a Streamable HTTP server (--header K:V repeatable)",
  "/mcp remove <name>              remove a server from config.json and disconnect it",
  "/mcp reload                     reconnect everything from the current config.json",
  "/mcp login <name>               log in to a server with OAuth (opens the browser) and reconnect it",
].join("\n");

/** REPL rows: `/mcp status|add|remove|reload|help`. */
export function mcpSlashCommands(): SlashCommand[] {
  return [{
    name: "/mcp",
    subcommands: ["status", "add", "remove", "reload", "login", "help"],
    help: "MCP servers: status (default), add, remove, reload, login, help",
    run: async (args, { mcp, out }) => {
      const [sub = "status", ...words] = args.split(/\s+/).filter(Boolean);
      const reload = async () => {
        await mcp.reload();
        out.write(mcpTable(mcp.states()) + "\n");
      };
      try {
        if (sub === "status") out.write(mcpTable(mcp.states()) + "\n");
        else if (sub === "help") out.write(MCP_HELP + "\n");
        else if (sub === "reload") await reload();
        else if (sub === "add") {
          const { name, spec } = parseAddArgs(words);
          out.write((await mcp.add(name, spec)) + "\n");
          await reload();
        } else if (sub === "login") {
          if (!words[0]) throw new Error("usage: /mcp login <name>");
          out.write((await mcp.login(words[0])) + "\n");
        } else if (sub === "remove") {
          if (!words[0]) throw new Error("usage: /mcp remove <name>");
          out.write((await mcp.remove(words[0])) + "\n");
          await reload();
        } else out.write(`unknown subcommand ${sub}\n${MCP_HELP}\n`);
      } catch (err) {
        out.write(`navi: ${(err as Error).message}\n`);
      }
    },
  }];
}
