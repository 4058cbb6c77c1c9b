import { join } from "node:path";
import type { PluginPermissions } from "./api.ts";
import type { HookDefinitionData, ModuleText, ToolDefinitionData } from "./protocol.ts";
import { APPROVAL_CLASSES, TOOL_NAME_PATTERN } from "../tool/mod.ts";

/** What is cached per plugin: its tools' definitions, the permissions it was granted, its stripped modules. */
export interface CacheEntry {
  key: string;
  grant: PluginPermissions;
  tools: ToolDefinitionData[];
  /** The type-stripped, parsed modules, so a first call needs no compiler (checked against the hash). */
  modules?: ModuleText[];
  /** The hooks it registered with `navi.on` (absent: none). */
  hooks?: HookDefinitionData[];
}

/** Whether a value from a worker or a cache file is a well-formed list of hook definitions. */
export function validHooks(value: unknown): value is HookDefinitionData[] {
  return Array.isArray(value) &&
    value.every((h) =>
      !!h && typeof h === "object" && typeof h.event === "string" && typeof h.matcher === "string"
    );
}

const KEEP_PER_PLUGIN = 4;

/** Whether a value from a worker or a cache file is a well-formed tool definition. */
export function validDefinition(value: unknown): value is ToolDefinitionData {
  const d = value as ToolDefinitionData;
  return !!d && typeof d === "object" && TOOL_NAME_PATTERN.test(String(d.name)) &&
    typeof d.description === "string" && !!d.inputSchema && typeof d.inputSchema === "object" &&
    APPROVAL_CLASSES.includes(d.approval) && typeof d.concurrencySafe === "boolean" &&
    (d.timeoutMs === undefined || (typeof d.timeoutMs === "number" && d.timeoutMs > 0));
}

/** Plugin definitions in `$NAVI_HOME/cache/plugins/`, one file per plugin and key. Never throws. */
export class PluginCache {
  #dir: string;

  /** A cache under `home`. */
  constructor(home: string) {
    this.#dir = join(home, "cache", "plugins");
  }

  #file(stem: string, key: string): string {
    return join(this.#dir, `${encodeURIComponent(stem)}@${key.slice(0, 32)}.json`);
  }

  /** The entry for `stem` under `key`, if present and well-formed. */
  read(stem: string, key: string): CacheEntry | undefined {
    try {
      const entry = JSON.parse(Deno.readTextFileSync(this.#file(stem, key))) as CacheEntry;
      if (entry.key !== key || !Array.isArray(entry.tools) || !entry.tools.every(validDefinition)) {
        return undefined;
      }
      if (!entry.grant || typeof entry.grant !== "object") return undefined;
      if (entry.hooks !== undefined && !validHooks(entry.hooks)) return undefined;
      return entry;
    } catch {
      return undefined;
    }
  }

  /** Store an entry; older entries of the same plugin beyond a few are removed. */
  write(stem: string, entry: CacheEntry): void {
    try {
      Deno.mkdirSync(this.#dir, { recursive: true });
      const file = this.#file(stem, entry.key);
      const tmp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
      Deno.writeTextFileSync(tmp, JSON.stringify(entry));
      Deno.renameSync(tmp, file);
      const prefix = `${encodeURIComponent(stem)}@`;
      const mine = [...Deno.readDirSync(this.#dir)]
        .filter((e) => e.name.startsWith(prefix) && e.name.endsWith(".json"))
        .map((e) => ({
          path: join(this.#dir, e.name),
          at: Deno.statSync(join(this.#dir, e.name)).mtime ?? 0,
        }))
        .sort((a, b) => Number(b.at) - Number(a.at));
      for (const old of mine.slice(KEEP_PER_PLUGIN)) Deno.removeSync(old.path);
    } catch { /* a cache that cannot be written only costs time */ }
  }

  /** Forget a plugin's entry (its worker registered something else than the cache said). */
  drop(stem: string, key: string): void {
    try {
      Deno.removeSync(this.#file(stem, key));
    } catch { /* already gone */ }
  }

  /**
   * Lines about loaded plugins that are new or whose permissions changed since the last announcement; what
   * is announced is remembered (in `announced.json`), so each line is said once.
   */
  announce(reports: { file: string; status: string; tools: string[]; permissions?: string }[]): string[] {
    const file = join(this.#dir, "announced.json");
    let seen: Record<string, string> = {};
    try {
      seen = JSON.parse(Deno.readTextFileSync(file));
    } catch { /* nothing announced yet */ }
    const lines: string[] = [];
    for (const r of reports) {
      if (r.status !== "loaded" || !r.permissions || seen[r.file] === r.permissions) continue;
      lines.push(
        seen[r.file] === undefined
          ? `new plugin ${r.file} (${r.tools.join(", ") || "no tools"}) may: ${r.permissions}`
          : `plugin ${r.file} permissions changed: ${r.permissions} (was: ${seen[r.file]})`,
      );
      seen[r.file] = r.permissions;
    }
    if (!lines.length) return lines;
    try {
      Deno.mkdirSync(this.#dir, { recursive: true });
      Deno.writeTextFileSync(file, JSON.stringify(seen));
    } catch { /* announced again next time */ }
    return lines;
  }
}
