// The plugin loader of an app: discovery, compilation, definitions (cached, read from the source or from a
// registration worker), workers started on demand, reloads and the plugins' hooks. Over 300 lines because
// the loader is the one owner of every plugin's entry; each step is its own method.
import type { Clock } from "../clock/mod.ts";
import type { PluginSettings } from "../config/mod.ts";
import type { PluginPermissions } from "./api.ts";
import { type CacheEntry, PluginCache, validDefinition, validHooks } from "./cache.ts";
import type { CompiledPlugin } from "./compile.ts";
import { PluginWorker, type Registration } from "./host.ts";
import { DEFAULT_PERMISSIONS, describePermissions, workerPermissions } from "./permissions.ts";
import type { HookDefinitionData, ModuleText, ToolDefinitionData } from "./protocol.ts";
import { discoverPlugins, pluginsDir, type PluginSource, readPlugin, sha256 } from "./source.ts";
import { pluginTool } from "./tool.ts";
import { errorMessage, type ToolRegistry } from "../tool/mod.ts";

/** What `navi plugins` shows for one plugin. */
export interface PluginReport {
  /** The plugin's file name (`x.ts`), or `<folder>/mod.ts` for a multi-file plugin. */
  file: string;
  /** Whether it loaded and registered its tools. */
  status: "loaded" | "failed";
  /** The tools it registered. */
  tools: string[];
  /** Why it failed. */
  error?: string;
  /** What it may do, in one line (`read $WORKSPACE; net api.example.com`). */
  permissions?: string;
}

/** Something a plugin did that the user should hear about once (a worker ended on its own, it wrote output). */
export interface PluginEvent {
  /** The plugin's name. */
  plugin: string;
  /** One line, naming the plugin. */
  message: string;
}

/** A hook a loaded plugin registered (`navi.on`); `call` runs its handler in the plugin's worker. */
export interface PluginHookSpec {
  /** The plugin's name. */
  plugin: string;
  /** The event name as registered. */
  event: string;
  /** Its matcher ("" for all). */
  matcher: string;
  /** Run the handler with `input`; resolves to the decision it returned (null for none). */
  call(input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

const HOOK_TIMEOUT_MS = 60_000;

/** What the loader needs. */
export interface PluginLoaderOptions {
  /** navi's home: plugins/, cache/ and logs/ are under it. */
  home: string;
  /** The workspace root handed to plugins (and `$WORKSPACE` in permissions). */
  workspace: string;
  /** navi's version, handed to plugins and part of the cache key. */
  version: string;
  /** `plugins.<stem>` sections of config.json. */
  config?: Record<string, PluginSettings>;
  /** How long module evaluation plus `register` may take (default 5 s). */
  timeoutMs?: number;
  /** How long a worker may sit idle before it is ended (default 5 minutes). */
  idleMs?: number;
  /** The user's home directory, for `$HOME` in permissions (default: $HOME). */
  userHome?: string;
  /** The environment plugins may be granted: navi's secrets removed (default: none). */
  childEnv?: () => Record<string, string>;
  /** A line for `$NAVI_HOME/logs/plugins.log`. */
  log?: (message: string) => void;
  /** Plugin folders of a trusted project (`.navi/plugins/`), loaded after the user's; reported by full path. */
  projectDirs?: string[];
  /** The clock of the workers' time limits and idle timeouts (default the system clock). */
  clock?: Clock;
}

interface Entry {
  /** The folder the plugin is in. */
  dir: string;
  source: PluginSource;
  key: string;
  grant: PluginPermissions;
  tools: ToolDefinitionData[];
  hooks: HookDefinitionData[];
  worker: PluginWorker;
  compiled?: CompiledPlugin;
  /** Stripped modules from the cache (used once the files' hash is checked again). */
  modules?: ModuleText[];
  checked?: Registration;
}

const COMPILE = () => import("./compile.ts");
const STATIC = () => import("./static_defs.ts");
const BOOT = () => import("./worker_js.ts");

/** Loads plugins: definitions from the cache or from a registration worker; tool calls run in workers. */
export class PluginLoader {
  #opts: PluginLoaderOptions;
  #registry: ToolRegistry;
  #cache: PluginCache;
  #entries = new Map<string, Entry>();
  #listeners = new Set<(e: PluginEvent) => void>();
  #bootUrl?: string;
  /** The reports of the last `load`, one per plugin. */
  reports: PluginReport[] = [];
  /** How many workers this loader started (registration and calls). */
  workersStarted = 0;
  /** How many plugins' definitions were read from their source without a worker (see `staticDefinitions`). */
  staticReads = 0;

  /** Load plugin tools into `registry`; `opts` says where from and what plugins receive. */
  constructor(registry: ToolRegistry, opts: PluginLoaderOptions) {
    this.#registry = registry;
    this.#opts = opts;
    this.#cache = new PluginCache(opts.home);
  }

  /** Hear about plugin workers that ended on their own; returns the unsubscribe function. */
  subscribe(fn: (e: PluginEvent) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Load (or reload) every plugin in name order. Unchanged plugins keep their definitions and workers. */
  async load(): Promise<PluginReport[]> {
    this.#registry.unregisterWhere((_t, s) => s.kind === "plugin");
    const found = this.#discover();
    const names = found.map((f) => f.file);
    const previous = this.#entries;
    this.#entries = new Map();
    const loaded = await this.#pool(names, async (file): Promise<Entry> => {
      const { dir, name } = found.find((f) => f.file === file)!;
      const source = await readPlugin(dir, name);
      const key = await this.#key(source);
      const before = previous.get(file);
      if (before?.key === key) return before;
      const cached = this.#cache.read(source.stem, key);
      if (cached) return this.#entry(dir, source, cached);
      return await this.#register(dir, source, key);
    });
    this.reports = names.map((file, i) => this.#install(file, loaded[i]));
    const kept = new Set(this.#entries.values());
    for (const old of previous.values()) if (!kept.has(old)) old.worker.stop("the plugin was reloaded");
    return this.reports;
  }

  /** The plugins of the user's folder, then of each trusted project folder (those by their full path). */
  #discover(): { dir: string; name: string; file: string }[] {
    const user = pluginsDir(this.#opts.home);
    const out = discoverPlugins(user).map((name) => ({ dir: user, name, file: name }));
    for (const dir of this.#opts.projectDirs ?? []) {
      for (const name of discoverPlugins(dir)) out.push({ dir, name, file: `${dir}/${name}` });
    }
    return out;
  }

  #install(file: string, outcome: Entry | Error): PluginReport {
    if (outcome instanceof Error) {
      return { file, status: "failed", tools: [], error: errorMessage(outcome).split("\n")[0] };
    }
    const report = { file, tools: [], permissions: describePermissions(outcome.grant) };
    try {
      for (const def of outcome.tools) this.#checkCollision(def.name);
    } catch (err) {
      outcome.worker.stop();
      return { ...report, status: "failed", error: errorMessage(err) };
    }
    this.#entries.set(file, outcome);
    for (const def of outcome.tools) {
      this.#registry.register(
        pluginTool(
          def,
          (name, args, opts) => this.#call(outcome, name, args, opts),
          () => void outcome.worker.start("call").catch(() => {}),
        ),
        { kind: "plugin", origin: file },
      );
    }
    return { ...report, status: "loaded", tools: outcome.tools.map((t) => t.name) };
  }

  async #pool<T>(items: string[], fn: (item: string) => Promise<T>): Promise<(T | Error)[]> {
    const out: (T | Error)[] = new Array(items.length);
    let next = 0;
    const lanes = Math.max(2, navigator.hardwareConcurrency || 2);
    await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]).catch((err) => (err instanceof Error ? err : new Error(String(err))));
      }
    }));
    return out;
  }

  #section(stem: string): { permissions?: PluginPermissions; config: unknown } {
    const section = this.#opts.config?.[stem];
    if (section === undefined) return { config: undefined };
    const { permissions, ...rest } = section;
    return { permissions, config: rest };
  }

  #key(source: PluginSource): Promise<string> {
    const { permissions, config } = this.#section(source.stem);
    const { version, workspace } = this.#opts;
    return sha256(JSON.stringify([version, source.hash, permissions ?? null, config ?? null, workspace]));
  }

  #entry(dir: string, source: PluginSource, cached: CacheEntry, compiled?: CompiledPlugin): Entry {
    const entry = {
      dir,
      source,
      key: cached.key,
      grant: cached.grant,
      tools: cached.tools,
      hooks: cached.hooks ?? [],
      compiled,
    } as Entry;
    if (!compiled && Array.isArray(cached.modules)) entry.modules = cached.modules;
    const userHome = this.#opts.userHome ?? Deno.env.get("HOME") ?? "/";
    const env = this.#opts.childEnv?.() ?? {};
    entry.worker = new PluginWorker({
      name: source.name,
      permissions: workerPermissions(cached.grant, {
        workspace: this.#opts.workspace,
        userHome,
        envNames: Object.keys(env),
      }),
      bootUrl: () => this.#boot(),
      prepare: async () => ({
        modules: await this.#modules(entry),
        api: {
          workspace: this.#opts.workspace,
          home: this.#opts.home,
          config: this.#section(source.stem).config,
          version: this.#opts.version,
        },
        childEnv: cached.grant.run ? env : null,
      }),
      loadTimeoutMs: this.#opts.timeoutMs ?? 5000,
      idleMs: this.#opts.idleMs ?? 300_000,
      clock: this.#opts.clock,
      log: (line) => this.#opts.log?.(line),
      fault: (message) => {
        for (const fn of this.#listeners) fn({ plugin: source.name, message });
      },
      notice: (message) => {
        for (const fn of this.#listeners) fn({ plugin: source.name, message });
      },
      started: (why) => {
        this.workersStarted++;
        this.#opts.log?.(`[plugin ${source.name}] worker started (${why})`);
      },
    });
    return entry;
  }

  async #modules(entry: Entry): Promise<ModuleText[]> {
    if (entry.compiled) return entry.compiled.modules;
    const { source } = entry;
    const now = await readPlugin(entry.dir, source.name);
    if (now.hash !== source.hash) {
      throw new Error(`${source.name} changed since it was loaded; run /plugins reload`);
    }
    if (entry.modules) return entry.modules;
    entry.compiled = (await COMPILE()).compilePlugin(now);
    return entry.compiled.modules;
  }

  async #boot(): Promise<string> {
    if (!this.#bootUrl) {
      const { PLUGIN_WORKER_JS } = await BOOT();
      this.#bootUrl ??= URL.createObjectURL(new Blob([PLUGIN_WORKER_JS], { type: "text/javascript" }));
    }
    return this.#bootUrl;
  }

  /**
   * Read a plugin's definitions from its source when they are plain data (`staticDefinitions`), else evaluate
   * it in a registration worker; check and cache the definitions, end the worker.
   */
  async #register(dir: string, source: PluginSource, key: string): Promise<Entry> {
    const compiled = (await COMPILE()).compilePlugin(source);
    const grant = this.#section(source.stem).permissions ?? compiled.declared ?? DEFAULT_PERMISSIONS;
    const entry = this.#entry(dir, source, { key, grant, tools: [] }, compiled);
    const read = (await STATIC()).staticDefinitions(compiled);
    if (read) {
      entry.tools = read;
      this.staticReads++;
      this.#opts.log?.(`[plugin ${source.name}] definitions read from its source (no worker)`);
      this.#cache.write(source.stem, { key, grant, tools: read, modules: compiled.modules });
      return entry;
    }
    try {
      const reg = await entry.worker.start("registration");
      if (JSON.stringify(reg.permissions ?? null) !== JSON.stringify(compiled.declared)) {
        throw new Error(
          "permissions changed while the module ran; declare them as a literal it does not modify",
        );
      }
      const seen = new Set<string>();
      for (const def of reg.tools) {
        if (!validDefinition(def)) throw new Error("the worker sent an invalid tool definition");
        if (seen.has(def.name)) throw new Error(`tool "${def.name}" is registered twice`);
        seen.add(def.name);
      }
      if (!validHooks(reg.hooks ?? [])) throw new Error("the worker sent an invalid hook definition");
      entry.tools = reg.tools;
      entry.hooks = reg.hooks ?? [];
      entry.checked = reg;
      const hooks = entry.hooks.length ? { hooks: entry.hooks } : {};
      this.#cache.write(source.stem, { key, grant, tools: reg.tools, modules: compiled.modules, ...hooks });
      return entry;
    } finally {
      entry.worker.stop();
    }
  }

  async #call(
    entry: Entry,
    tool: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number },
  ) {
    const reg = await entry.worker.start("call");
    if (reg !== entry.checked) {
      if (JSON.stringify(reg.tools) !== JSON.stringify(entry.tools)) {
        entry.worker.stop();
        this.#cache.drop(entry.source.stem, entry.key);
        throw new Error(
          `plugin ${entry.source.name} registered other tools than navi offered (changed file or a register() ` +
            "that depends on something else); run /plugins reload",
        );
      }
      entry.checked = reg;
    }
    return await entry.worker.call(tool, args, opts);
  }

  #checkCollision(name: string): void {
    const source = this.#registry.sourceOf(name);
    if (!source) return;
    if (source.kind === "builtin") {
      throw new Error(`tool "${name}" collides with a built-in tool (the built-in wins)`);
    }
    throw new Error(`tool "${name}" is already registered by ${source.origin} (the earlier file wins)`);
  }

  /** The hooks of the loaded plugins, in load order; each runs in its plugin's worker (started on demand). */
  hooks(): PluginHookSpec[] {
    return [...this.#entries.values()].flatMap((entry) =>
      entry.hooks.map((h, i) => ({
        plugin: entry.source.name,
        event: h.event,
        matcher: h.matcher,
        call: async (input: Record<string, unknown>, signal?: AbortSignal) => {
          const opts = { signal: signal ?? new AbortController().signal, timeoutMs: HOOK_TIMEOUT_MS };
          const result = await this.#call(entry, `hook:${i}`, input, opts);
          if (!result.ok) throw new Error(result.error);
          return result.decision ?? null;
        },
      }))
    );
  }

  /** Lines about plugins that are new or whose permissions changed since they were last announced (once). */
  announcements(): string[] {
    return this.#cache.announce(this.reports);
  }

  /**
   * End every plugin worker (at exit), after each has sent the reports it had queued (a stray rejection of a
   * call that just ended); `flush: false` skips that round trip.
   */
  async close(opts: { flush?: boolean } = {}): Promise<void> {
    const entries = [...this.#entries.values()];
    if (opts.flush !== false) await Promise.all(entries.map((e) => e.worker.flush()));
    for (const entry of entries) entry.worker.stop();
  }
}
