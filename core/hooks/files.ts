// Which settings files may hold hooks: navi's config.json files and, with `compat.claude`, Claude Code's
// settings files; read cheaply (a file that never says "hooks" is not parsed, and the loader is not loaded).
import { join } from "node:path";
import type { ProjectLayout, TrustItem } from "../project/mod.ts";
import type { HookFile, LoadedHooks } from "./load.ts";
import type { HookSource } from "./types.ts";

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** Where hooks may come from. */
export interface HookPlaces {
  /** navi's config.json (the user's). */
  userConfig: string;
  /** The user's home directory (`~/.claude/settings.json`). */
  userHome?: string;
  /** The project layer (its `.navi/config.json` files, its `.claude/` settings; `compat.claude`). */
  layout?: ProjectLayout;
  /** Whether Claude Code's files are read (default: the layout's `compat.claude`, else true). */
  claude?: boolean;
  /** Plugin bundles' `hooks/hooks.json` files, with their folders. */
  bundles?: readonly { file: string; root: string; claude: boolean; level: "user" | "project" }[];
}

/** The settings files that mention `"hooks"`, in order: the user's first, then the project's (root first). */
export function hookFiles(places: HookPlaces): HookFile[] {
  const out: HookFile[] = [];
  const add = (path: string, source: HookSource, bare = false) => {
    const text = readText(path);
    if (text !== undefined && text.includes("hooks")) {
      out.push({ path, text, source, ...(bare ? { bare } : {}) });
    }
  };
  const claude = places.claude ?? places.layout?.compat.claude ?? true;
  add(places.userConfig, { file: places.userConfig, level: "user", vocabulary: "navi" });
  if (claude && places.userHome) {
    const file = join(places.userHome, ".claude", "settings.json");
    add(file, { file, level: "user", vocabulary: "claude" });
  }
  for (const file of places.layout?.configFiles ?? []) {
    add(file, { file, level: "project", vocabulary: "navi" });
  }
  if (claude) {
    for (const dir of places.layout?.dirs ?? []) {
      for (const name of ["settings.json", "settings.local.json"]) {
        const file = join(dir, ".claude", name);
        if (places.userHome && file === join(places.userHome, ".claude", name)) continue;
        add(file, { file, level: "project", vocabulary: "claude" });
      }
    }
  }
  for (const b of places.bundles ?? []) {
    add(b.file, {
      file: b.file,
      level: b.level,
      vocabulary: b.claude ? "claude" : "navi",
      pluginRoot: b.root,
    }, true);
  }
  return out;
}

/** Parse `files` (the loader is loaded only when there is a file to read). */
export async function loadHooks(files: readonly HookFile[]): Promise<LoadedHooks> {
  if (!files.length) return { hooks: [], skipped: [], problems: [] };
  const { loadHookFiles } = await import("./load.ts");
  return loadHookFiles(files);
}

/** What the project's hooks would run, for the trust prompt and hash (each hook's command line). */
export function hookTrustItems(loaded: LoadedHooks): TrustItem[] {
  return loaded.hooks.filter((h) => h.source.level === "project").map((h) => ({
    kind: "hook",
    what: `${h.event}${h.matcher ? ` [${h.matcher}]` : ""}: ${h.command}`,
    file: h.source.file,
    name: h.event,
  }));
}
