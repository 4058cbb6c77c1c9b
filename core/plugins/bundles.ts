// Plugin bundles: a folder in a plugins directory that carries, beside its tools (`mod.ts`), `commands/`,
// `skills/`, `agents/`, `hooks/hooks.json` and `.mcp.json`; Claude Code's plugin layout
// (`.claude-plugin/plugin.json`, `${CLAUDE_PLUGIN_ROOT}`) is read as such. Finding them reads directories only.
import { basename, join } from "node:path";

/** One bundle found in a plugins directory. */
export interface PluginBundle {
  /** Its name: `name` of `.claude-plugin/plugin.json`, else the folder's name. */
  name: string;
  /** The folder (absolute): `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  /** The user's plugins directory, or a trusted project's `.navi/plugins/`. */
  level: "user" | "project";
  /** It has `.claude-plugin/plugin.json`: its hooks see Claude Code's vocabulary. */
  claude: boolean;
  /** The manifest's description and version, when it has them. */
  description?: string;
  /** The manifest's version. */
  version?: string;
  /** `mod.ts`: tools, run as a plugin. */
  tools: boolean;
  /** Which of `commands/`, `skills/`, `agents/` it has. */
  commands: boolean;
  /** Has `skills/`. */
  skills: boolean;
  /** `agents/` (for subagents), absolute, when present. */
  agents?: string;
  /** `hooks/hooks.json`, absolute, when present. */
  hooksFile?: string;
  /** `.mcp.json`, absolute, when present. */
  mcpFile?: string;
}

const isDir = (p: string) => {
  try {
    return Deno.statSync(p).isDirectory;
  } catch {
    return false;
  }
};
const isFile = (p: string) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
};

function manifest(root: string): { name?: string; description?: string; version?: string } | undefined {
  const file = join(root, ".claude-plugin", "plugin.json");
  if (!isFile(file)) return undefined;
  try {
    const raw = JSON.parse(Deno.readTextFileSync(file));
    const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
    return { name: str(raw?.name), description: str(raw?.description), version: str(raw?.version) };
  } catch {
    return {};
  }
}

/** The bundle in folder `root`, or undefined when it carries nothing a bundle may carry. */
export function readBundle(root: string, level: "user" | "project"): PluginBundle | undefined {
  const m = manifest(root);
  const hooksFile = join(root, "hooks", "hooks.json");
  const mcpFile = join(root, ".mcp.json");
  const agents = join(root, "agents");
  const bundle: PluginBundle = {
    name: m?.name && /^[A-Za-z0-9_.-]+$/.test(m.name) ? m.name : basename(root),
    root,
    level,
    claude: m !== undefined,
    ...(m?.description ? { description: m.description } : {}),
    ...(m?.version ? { version: m.version } : {}),
    tools: isFile(join(root, "mod.ts")),
    commands: isDir(join(root, "commands")),
    skills: isDir(join(root, "skills")),
    ...(isDir(agents) ? { agents } : {}),
    ...(isFile(hooksFile) ? { hooksFile } : {}),
    ...(isFile(mcpFile) ? { mcpFile } : {}),
  };
  const carries = bundle.tools || bundle.commands || bundle.skills || bundle.agents || bundle.hooksFile ||
    bundle.mcpFile || bundle.claude;
  return carries ? bundle : undefined;
}

/** The bundles (folders) of each plugins directory, in name order. */
export function findBundles(dirs: readonly { dir: string; level: "user" | "project" }[]): PluginBundle[] {
  const out: PluginBundle[] = [];
  for (const { dir, level } of dirs) {
    let names: string[];
    try {
      names = [...Deno.readDirSync(dir)].filter((e) => !e.name.startsWith(".")).map((e) => e.name).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const root = join(dir, name);
      if (!isDir(root)) continue;
      const bundle = readBundle(root, level);
      if (bundle) out.push(bundle);
    }
  }
  return out;
}

/** `text` with `${CLAUDE_PLUGIN_ROOT}` replaced by `root`, escaped for a JSON string. */
export function expandPluginRoot(text: string, root: string): string {
  return text.replaceAll("${CLAUDE_PLUGIN_ROOT}", JSON.stringify(root).slice(1, -1));
}
