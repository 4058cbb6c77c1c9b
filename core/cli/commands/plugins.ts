import { join } from "node:path";
import { discoverPlugins, type PluginReport, pluginsDir, TOOL_NAME_PATTERN } from "../../mod.ts";
import type { PluginControl, SlashCommand } from "../slash.ts";
import { escapeControls } from "../../output/mod.ts";
import { makeStyle, table } from "../style.ts";

/** One line per failed plugin, for start-up warnings. */
export function pluginWarnings(reports: PluginReport[]): string[] {
  return reports.filter((r) => r.status === "failed").map((r) => `plugin ${r.file} skipped: ${r.error}`);
}

/** `navi plugins` / `/plugins`: each plugin with loaded/failed, its permissions, its tools and its error. */
export function pluginsList(plugins: Pick<PluginControl, "dir" | "reports">, color = false): string {
  const style = makeStyle(color);
  const { dir } = plugins;
  const reports = plugins.reports();
  if (!reports.length) {
    const ignored = ignoredFiles(dir);
    const hint = ignored.length
      ? `; ignored ${ignored.join(", ")}: plugins are .ts, .js or .mjs files directly in that directory`
      : "";
    return `no plugins in ${dir} (create one with: navi plugins init <name>)${hint}`;
  }
  const rows = reports.map((r) => [
    r.file,
    r.status === "loaded" ? style.green("loaded") : style.red("failed"),
    r.status === "loaded" ? r.permissions ?? "" : "",
    r.status === "loaded" ? r.tools.join(", ") || "(no tools)" : escapeControls(r.error ?? ""),
  ]);
  const header = ["PLUGIN", "STATUS", "PERMISSIONS", "TOOLS / ERROR"].map(style.bold);
  return `${table([header, ...rows])}\n${style.dim(dir)}`;
}

/** Entries of the plugins directory that are not plugin files (so that "no plugins" can say why). */
function ignoredFiles(dir: string): string[] {
  try {
    const plugins = new Set(discoverPlugins(dir));
    return [...Deno.readDirSync(dir)].map((e) => e.name + (e.isDirectory ? "/" : ""))
      .filter((n) => !plugins.has(n) && !plugins.has(`${n}mod.ts`) && n !== "navi.d.ts").sort();
  } catch {
    return [];
  }
}

/** `navi plugins init <name>`: write a commented template and a current navi.d.ts. */
export async function pluginsInit(
  home: string,
  name: string,
  files: { template: string; types: string },
): Promise<string> {
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new Error(`invalid plugin name ${JSON.stringify(name)}: use a-z A-Z 0-9 _ -`);
  }
  const dir = pluginsDir(home);
  await Deno.mkdir(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  const toolName = name.replaceAll("-", "_");
  const twin = discoverPlugins(dir).find((f) =>
    f.replace(/\.(ts|js|mjs)$/, "").replaceAll("-", "_") === toolName
  );
  if (twin && twin !== `${name}.ts`) {
    throw new Error(`${join(dir, twin)} already makes the tool ${toolName}; choose another name`);
  }
  try {
    await Deno.writeTextFile(file, files.template.replaceAll("__NAME__", name.replaceAll("-", "_")), {
      createNew: true,
    });
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) {
      throw new Error(`${file} already exists; not overwriting it`);
    }
    throw err;
  }
  await Deno.writeTextFile(join(dir, "navi.d.ts"), files.types);
  return `wrote ${file} and ${join(dir, "navi.d.ts")}`;
}

/** REPL rows: `/plugins` (list) and `/plugins reload`. */
export function pluginSlashCommands(): SlashCommand[] {
  return [{
    name: "/plugins",
    subcommands: ["list", "reload"],
    help: "list plugins, or rescan the plugin directory (applies from the next request)",
    run: async (args, { plugins, out }) => {
      if (args === "reload") {
        const reports = await plugins.reload();
        const loaded = reports.filter((r) => r.status === "loaded");
        const failed = reports.length - loaded.length;
        const tools = loaded.flatMap((r) => r.tools);
        const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
        out.write(
          `reloaded ${plural(loaded.length, "plugin")}, ${plural(tools.length, "tool")}${
            failed ? `; ${failed} failed` : ""
          }\n`,
        );
        for (const w of pluginWarnings(reports)) out.write(`navi: ${escapeControls(w)}\n`);
        for (const line of plugins.announcements()) out.write(`navi: ${line}\n`);
        return;
      }
      out.write(pluginsList(plugins, Deno.stdout.isTerminal()) + "\n");
    },
  }];
}
