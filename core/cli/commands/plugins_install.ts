import { basename, join, resolve } from "node:path";
import {
  expandPluginRoot,
  type HookFile,
  loadHooks,
  naviHome,
  type PluginBundle,
  pluginsDir,
  readBundle,
  readProjectConfig,
} from "../../mod.ts";
import type { Sink } from "../../output/mod.ts";
import { readCookedLine } from "../trust_prompt.ts";

function names(dir: string, pick: (e: Deno.DirEntry) => string | undefined): string[] {
  try {
    return [...Deno.readDirSync(dir)].map(pick).filter((n): n is string => !!n).sort();
  } catch {
    return [];
  }
}

/** What `bundle` would add once installed at `dest`, one line per part (hooks and servers as they would run). */
export async function bundleSummary(bundle: PluginBundle, dest: string): Promise<string[]> {
  const lines = [
    `plugin bundle ${bundle.name}${bundle.version ? ` ${bundle.version}` : ""}${
      bundle.claude ? " (Claude Code plugin layout)" : ""
    } from ${bundle.root}`,
  ];
  if (bundle.description) lines.push(`  ${bundle.description}`);
  if (bundle.tools) lines.push("  tools:    mod.ts, run in a worker with the permissions it declares");
  if (bundle.hooksFile) {
    const text = await Deno.readTextFile(bundle.hooksFile);
    const file: HookFile = {
      path: bundle.hooksFile,
      text,
      bare: true,
      source: {
        file: bundle.hooksFile,
        level: "user",
        vocabulary: bundle.claude ? "claude" : "navi",
        pluginRoot: dest,
      },
    };
    const loaded = await loadHooks([file]);
    for (const h of loaded.hooks) {
      lines.push(`  hook:     ${h.event}${h.matcher ? ` [${h.matcher}]` : ""}: ${h.command}`);
    }
    for (const p of loaded.problems) lines.push(`  problem:  ${p}`);
  }
  if (bundle.mcpFile) {
    const read = readProjectConfig({
      configFiles: [],
      mcpFiles: [bundle.mcpFile],
      mcpText: (t) => expandPluginRoot(t, dest),
    });
    for (const [name, s] of Object.entries(read.settings[0]?.config.mcp_servers ?? {})) {
      lines.push(`  server:   ${name}: ${s.url ?? [s.command, ...(s.args ?? [])].join(" ")}`);
    }
    for (const p of read.problems) lines.push(`  problem:  ${p}`);
  }
  const md = (e: Deno.DirEntry) => (e.isFile && e.name.endsWith(".md") ? e.name.slice(0, -3) : undefined);
  const commands = bundle.commands ? names(join(bundle.root, "commands"), md) : [];
  if (commands.length) lines.push(`  commands: ${commands.map((c) => `/${c}`).join(", ")}`);
  const skills = bundle.skills
    ? names(join(bundle.root, "skills"), (e) => e.isDirectory ? e.name : undefined)
    : [];
  if (skills.length) lines.push(`  skills:   ${skills.join(", ")}`);
  const agents = bundle.agents ? names(bundle.agents, md) : [];
  if (agents.length) lines.push(`  agents:   ${agents.join(", ")}`);
  return lines;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isSymlink) continue;
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/**
 * `navi plugins install <folder> [--yes]`: show what the bundle contains (tools, hooks, servers, commands,
 * skills, agents) and, once the user agrees (`--yes` without a terminal), copy it into the plugins directory.
 * Symbolic links are not copied. Returns the exit status.
 */
export async function pluginsInstall(
  folder: string,
  opts: { yes?: boolean; home?: string },
  io: { out: Sink; interactive: boolean },
): Promise<number> {
  const root = resolve(folder);
  const bundle = readBundle(root, "user");
  if (!bundle) {
    io.out.write(
      `${root} is not a plugin bundle: it has none of mod.ts, commands/, skills/, agents/, hooks/hooks.json, ` +
        ".mcp.json, .claude-plugin/plugin.json\n",
    );
    return 1;
  }
  const dir = pluginsDir(opts.home ?? naviHome());
  const dest = join(dir, bundle.name);
  if (await Deno.stat(dest).then(() => true, () => false)) {
    io.out.write(`${dest} already exists; remove it first to install ${bundle.name} again\n`);
    return 1;
  }
  io.out.write((await bundleSummary(bundle, dest)).join("\n") + "\n");
  if (!opts.yes) {
    if (!io.interactive) {
      io.out.write("not installed: no terminal to ask; run again with --yes to install it\n");
      return 1;
    }
    io.out.write(`Install it into ${dir}? [y/N] `);
    const answer = (await readCookedLine())?.trim().toLowerCase();
    if (answer !== "y" && answer !== "yes") {
      io.out.write("not installed\n");
      return 1;
    }
  }
  const tmp = join(dir, `.${basename(dest)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await copyTree(root, tmp);
    await Deno.rename(tmp, dest);
  } catch (err) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    io.out.write(`not installed: ${(err as Error).message}\n`);
    return 1;
  }
  io.out.write(`installed ${bundle.name} into ${dest}\n`);
  return 0;
}
