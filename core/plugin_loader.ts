import { stripTypeScriptTypes } from "node:module";
import { join } from "node:path";
import { z } from "zod";
import type { ToolRegistry } from "./registry.ts";
import { defineTool } from "./tool_define.ts";
import { errorMessage } from "./tool_result.ts";
import { APPROVAL_CLASSES, type Tool, TOOL_NAME_PATTERN } from "./tool_types.ts";
import { fnv1a } from "./tool_pool.ts";
import type { NaviPluginApi } from "./plugin_api.ts";

/** What `navi plugins` shows for one file. */
export interface PluginReport {
  /** The plugin's file name. */
  file: string;
  /** Whether the file loaded and registered its tools. */
  status: "loaded" | "failed";
  /** The tools it registered. */
  tools: string[];
  /** Why it failed. */
  error?: string;
}

/** What the loader needs. */
export interface PluginLoaderOptions {
  home: string;
  workspace: string;
  version: string;
  /** `plugins.<file stem>` sections of config.json. */
  config?: Record<string, unknown>;
  /** How long `register` may take (default 5 s). */
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** The plugins directory under a navi home. */
export function pluginsDir(home: string): string {
  return join(home, "plugins");
}

/** Plugin file names in load order: *.ts, *.js, *.mjs sorted; `_`/`.` prefixes and *.d.ts skipped. */
export function discoverPlugins(dir: string): string[] {
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile || e.isSymlink).map((e) => e.name);
  } catch {
    return [];
  }
  return names
    .filter((n) =>
      /\.(ts|js|mjs)$/.test(n) && !n.endsWith(".d.ts") && !n.startsWith("_") && !n.startsWith(".")
    )
    .sort();
}

/** Strip types from plugin source; a syntax error is reported with line:column. */
export function toJavaScript(source: string): string {
  try {
    return stripTypeScriptTypes(source);
  } catch {
    try {
      return stripTypeScriptTypes(source, { mode: "transform" });
    } catch (err) {
      const text = errorMessage(err);
      const where = /:(\d+):(\d+)\s*$/m.exec(text);
      const first = text.split("\n")[0].replace(/^SyntaxError:\s*/, "");
      throw new Error(`syntax error${where ? ` at ${where[1]}:${where[2]}` : ""}: ${first}`);
    }
  }
}

function validateDefinition(def: unknown): Tool {
  if (!def || typeof def !== "object") throw new Error("registerTool needs a definition object");
  const d = def as Record<string, unknown>;
  const name = typeof d.name === "string" ? d.name : "";
  const label = name ? `tool ${JSON.stringify(name)}` : "a tool";
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new Error(`${label}: invalid name; use 1-64 characters from a-z A-Z 0-9 _ -`);
  }
  if (typeof d.description !== "string" || !d.description.trim()) {
    throw new Error(`${label}: missing description`);
  }
  if (!(d.parameters instanceof z.ZodObject)) {
    throw new Error(`${label}: parameters must be navi.z.object({...})`);
  }
  if (!APPROVAL_CLASSES.includes(d.approval as never)) {
    throw new Error(`${label}: approval must be one of ${APPROVAL_CLASSES.join(", ")}`);
  }
  if (typeof d.handler !== "function") throw new Error(`${label}: handler must be a function`);
  return defineTool(d as unknown as Parameters<typeof defineTool>[0]);
}

/** Loads plugin files into a registry; every fault is contained in that file's report. */
export class PluginLoader {
  #opts: PluginLoaderOptions;
  #registry: ToolRegistry;
  /** The reports of the last `load`, one per file. */
  reports: PluginReport[] = [];

  /** Load plugin tools into `registry`; `opts` says where from and what plugins receive. */
  constructor(registry: ToolRegistry, opts: PluginLoaderOptions) {
    this.#registry = registry;
    this.#opts = opts;
  }

  /** Load every plugin in file order (replacing tools of an earlier load). */
  async load(): Promise<PluginReport[]> {
    this.#registry.unregisterWhere((_t, s) => s.kind === "plugin");
    const dir = pluginsDir(this.#opts.home);
    this.reports = [];
    const files = discoverPlugins(dir);
    const modules = files.map((file) =>
      this.#import(join(dir, file), file).then(
        (mod) => ({ mod }),
        (error: unknown) => ({ mod: undefined, error }),
      )
    );
    for (const [i, file] of files.entries()) {
      const report: PluginReport = { file, status: "loaded", tools: [] };
      try {
        const loaded = await modules[i];
        if (!loaded.mod) throw loaded.error;
        const tools = await this.#register(loaded.mod, file);
        for (const tool of tools) this.#checkCollision(tool.name);
        for (const tool of tools) this.#registry.register(tool, { kind: "plugin", origin: file });
        report.tools = tools.map((t) => t.name);
      } catch (err) {
        report.status = "failed";
        report.error = errorMessage(err).split("\n")[0];
      }
      this.reports.push(report);
    }
    return this.reports;
  }

  #checkCollision(name: string): void {
    const source = this.#registry.sourceOf(name);
    if (!source) return;
    if (source.kind === "builtin") {
      throw new Error(`tool "${name}" collides with a built-in tool (the built-in wins)`);
    }
    throw new Error(`tool "${name}" is already registered by ${source.origin} (the earlier file wins)`);
  }

  /** Read, strip and import one file; imports run concurrently, registration stays in file order. */
  async #import(path: string, file: string): Promise<{ default?: unknown }> {
    const source = await Deno.readTextFile(path);
    const js = toJavaScript(source);
    const url = `data:application/javascript;base64,${
      new TextEncoder().encode(`${js}\n//# navi-plugin ${file} ${fnv1a(source)}`).toBase64()
    }`;
    let mod: { default?: unknown };
    try {
      mod = await import(url);
    } catch (err) {
      const text = errorMessage(err);
      const where = /:(\d+):(\d+)\s*$/.exec(text);
      const kind = err instanceof SyntaxError ? "syntax error" : "error";
      throw new Error(
        `${kind}${where ? ` at ${where[1]}:${where[2]}` : ""}: ${text.replace(/ at data:\S+$/, "")}`,
      );
    }
    return mod;
  }

  async #register(mod: { default?: unknown }, file: string): Promise<Tool[]> {
    if (typeof mod.default !== "function") {
      throw new Error("the default export must be a function: export default function register(navi) {...}");
    }
    const defs: unknown[] = [];
    let open = true;
    const stem = file.replace(/\.(ts|js|mjs)$/, "");
    const api: NaviPluginApi = {
      registerTool: (def: unknown) => {
        if (!open) throw new Error("registerTool must be called while register() runs");
        defs.push(def);
      },
      z,
      workspace: this.#opts.workspace,
      home: this.#opts.home,
      config: this.#opts.config?.[stem],
      log: (m) => this.#opts.log?.(`[plugin ${file}] ${m}`),
      version: this.#opts.version,
    };
    const timeoutMs = this.#opts.timeoutMs ?? 5000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(() => (mod.default as (api: NaviPluginApi) => unknown)(api)),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`register() did not finish within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("register() did not finish")) throw err;
      throw new Error(`register() failed: ${errorMessage(err)}`);
    } finally {
      clearTimeout(timer);
      open = false;
    }
    const tools = defs.map(validateDefinition);
    const seen = new Set<string>();
    for (const t of tools) {
      if (seen.has(t.name)) throw new Error(`tool "${t.name}" is registered twice`);
      seen.add(t.name);
    }
    return tools;
  }
}
