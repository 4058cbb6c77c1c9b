// The recorder of one conversation: the checkpoint before each user turn, and around each tool call that may
// change files, what it changed (the content before and after, kept in the session's store).
import { basename, dirname, join, relative, resolve } from "node:path";
import type { CheckpointSettings } from "../config/mod.ts";
import { isInside } from "../workspace/mod.ts";
import { DonorIndex, type FileChange, TooManyFiles, WorkspaceIndex } from "./index.ts";
import { IgnoreRules, loadIgnore } from "./ignore.ts";
import { findDonor, pruneStores } from "./prune.ts";
import { type ChangeRecord, CheckpointStore, type FileVersion, storeDir } from "./store.ts";
import { ChangeWatch } from "./watch.ts";

/**
 * What a tool call may change in the workspace: the files its arguments name (write_file, edit_file), or any
 * file (a program it runs: bash; a plugin or MCP tool that is not read-only).
 */
export type FileEffect = { files: string[] } | "any";

/** A tool call under way whose changes are being captured; `done` records them once the call ended. */
export interface CallCapture {
  /** The call ended: record what it changed. Never throws. */
  done(): Promise<void>;
}

/** What the agent calls: before each user turn, and around each call that may change files. */
export interface CheckpointHooks {
  /** Checkpoint `n` was taken before a user turn: later changes belong to it. */
  beginTurn(n: number): void;
  /** A call that may change any file is on its way (its name is streaming in): start the first look now. */
  expect(): void;
  /** A call of `tool` with `effect` is about to run: keep what it may change. Never throws. */
  beforeCall(call: { tool: string; effect: FileEffect }): Promise<CallCapture | undefined>;
}

/** How a recorder is set up. */
export interface RecorderOptions {
  /** navi's home (the store goes under `sessions/<id>/checkpoints`; left out of the workspace when inside it). */
  home: string;
  /** The session the checkpoints belong to. */
  sessionId: string;
  /** The workspace root. */
  workspace: string;
  /** The `checkpoints` section of config.json. */
  settings?: CheckpointSettings;
  /** One line for the user (what is not kept, and why). */
  notice?(line: string): void;
  /** Use the OS's file events to know what a command touched (default true; false walks the workspace). */
  watch?: boolean;
}

/** How the recorder has been working (for tests and the bench). */
export interface RecorderStats {
  /** The file watch is on. */
  watching: boolean;
  /** Walks of the whole workspace after the first look (the events could not be trusted to be complete). */
  walks: number;
  /** Windows settled from the events alone. */
  settled: number;
}

const MB = 1024 * 1024;
/** navi's own files and folders, left out when navi's home is the workspace itself (config.json may hold keys). */
const NAVI_FOLDERS = ["sessions", "cache", "logs", "auth", "history", "config.json", "trust.json"];
const WHY: Record<string, string> = {
  size: "over the size limit",
  cap: "the session's store is full",
  ignored: ".gitignore",
  unreadable: "unreadable",
  outside: "outside the workspace",
};

interface Setup {
  root: string;
  rules: IgnoreRules;
  index: WorkspaceIndex;
}

/**
 * Records checkpoints for one session. The first call that may change any file starts (as its name streams
 * in, in the background) a look at every file of the workspace (its content kept, or hard-linked from an earlier session's store when unchanged) and a watch
 * of file events; a call that may change any file then costs two fences on the event stream plus a look at
 * the paths the events name (or a walk of the workspace when the events cannot be trusted to be complete).
 */
export class Checkpoints implements CheckpointHooks {
  /** The session's store. */
  readonly store: CheckpointStore;
  #opts: RecorderOptions;
  #n = 0;
  #setup?: Promise<Setup | undefined>;
  #baseline?: Promise<boolean>;
  #watch?: ChangeWatch;
  #off?: string;
  #closing = false;
  #lock: Promise<unknown> = Promise.resolve();
  #noted = new Set<string>();
  #stats = { walks: 0, settled: 0 };

  /** A recorder for the session in `opts`; nothing is read or watched before the first turn. */
  constructor(opts: RecorderOptions) {
    this.#opts = opts;
    const capBytes = (opts.settings?.max_session_mb ?? 500) * MB;
    this.store = new CheckpointStore(storeDir(opts.home, opts.sessionId), { capBytes });
  }

  /** Checkpoint `n` was taken before a user turn. */
  beginTurn(n: number): void {
    this.#n = n;
  }

  /**
   * A call that may change any file is on its way: start the first look in the background (a session that
   * never calls such a tool never looks, watches or stores anything).
   */
  expect(): void {
    if (!this.#off && !this.#closing) void this.#startBaseline();
  }

  /** A call is about to run: keep what it may change (nothing when checkpoints are off). */
  async beforeCall(call: { tool: string; effect: FileEffect }): Promise<CallCapture | undefined> {
    if (this.#off || this.#closing) return undefined;
    const release = await this.#acquire();
    try {
      const capture = call.effect === "any"
        ? await this.#beforeAny(call.tool)
        : await this.#beforeFiles(call.tool, call.effect.files);
      if (!capture) release();
      return capture && {
        done: async () => {
          try {
            await capture();
          } catch (err) {
            this.#disable(err);
          } finally {
            release();
          }
        },
      };
    } catch (err) {
      this.#disable(err);
      release();
      return undefined;
    }
  }

  async #acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.#lock;
    this.#lock = prev.then(() => next);
    await prev;
    return release;
  }

  #prepare(): Promise<Setup | undefined> {
    this.#setup ??= (async () => {
      const root = await Deno.realPath(this.#opts.workspace);
      const home = await Deno.realPath(this.#opts.home).catch(() => resolve(this.#opts.home));
      const excluded = home === root
        ? NAVI_FOLDERS
        : isInside(root, home)
        ? [relative(root, home).split("\\").join("/")]
        : [];
      const rules = new IgnoreRules(root, await loadIgnore(), { excluded });
      const maxFileBytes = (this.#opts.settings?.max_file_mb ?? 10) * MB;
      return { root, rules, index: new WorkspaceIndex(root, { rules, store: this.store, maxFileBytes }) };
    })().catch((err) => {
      this.#disable(err);
      return undefined;
    });
    return this.#setup;
  }

  #startBaseline(): Promise<boolean> {
    this.#baseline ??= this.#look().catch((err) => {
      if (err instanceof TooManyFiles) {
        void this.#watch?.close();
        this.#watch = undefined;
        this.#note(
          `checkpoints: ${err.message}: what commands change is not kept; write_file and edit_file are`,
        );
      } else this.#disable(err);
      return false;
    });
    return this.#baseline;
  }

  /** The first look: watch, then walk the whole workspace, keeping every file's content. */
  async #look(): Promise<boolean> {
    const setup = await this.#prepare();
    if (!setup || this.#closing) return false;
    const { root, index } = setup;
    try {
      if (this.#opts.watch !== false) this.#watch = ChangeWatch.start(root, join(this.store.dir, "fences"));
    } catch (err) {
      this.#note(`checkpoints: no file watch (${(err as Error).message}); each command walks the workspace`);
    }
    const keep = this.#opts.settings?.keep_sessions ?? 20;
    try {
      pruneStores(this.#opts.home, { keep, current: this.#opts.sessionId });
    } catch { /* pruning is housekeeping */ }
    const own = this.store.readJson("index.json");
    const lender = own ? undefined : this.#lender(root);
    const saved = own ?? lender;
    const donor = saved ? new DonorIndex(saved, (hash) => this.store.has(hash)) : undefined;
    const maxFiles = this.#opts.settings?.max_files ?? 100_000;
    await index.walk("", { pause: () => this.#pause(), donor, maxFiles });
    this.store.writeJson("workspace.json", { root });
    this.store.writeJson("index.json", index);
    return true;
  }

  /**
   * The saved index of the newest other store of this workspace, its packs hard-linked into this store; none
   * when that store holds more than twice what its workspace had (plus 16 MB): contents of files long gone
   * are then left behind, and this session starts packs of its own.
   */
  #lender(root: string): unknown {
    const donorStore = findDonor(this.#opts.home, { except: this.#opts.sessionId, root });
    const saved = donorStore?.readJson("index.json") as { files?: unknown[][] } | undefined;
    if (!donorStore || !Array.isArray(saved?.files)) return undefined;
    const live = saved.files.reduce((n, e) => n + (typeof e[1] === "number" ? e[1] : 0), 0);
    if (donorStore.bytes() > 2 * live + 16 * MB) return undefined;
    this.store.linkPacks(donorStore);
    return saved;
  }

  #pause(): Promise<void> {
    if (this.#closing) return Promise.reject(new Error("navi is closing"));
    return new Promise((r) => setTimeout(r, 0));
  }

  async #beforeAny(tool: string): Promise<(() => Promise<void>) | undefined> {
    if (!(await this.#startBaseline()) || this.#off) return undefined;
    const setup = (await this.#prepare())!;
    await this.#sync(setup);
    const n = this.#n;
    return async () => {
      const changes = await this.#sync(setup);
      this.#record(n, tool, changes);
      this.#tellIgnored(setup.index);
    };
  }

  /** Bring the index up to date: the paths the watch names, or a walk of everything. */
  async #sync(setup: Setup): Promise<FileChange[]> {
    const settled = this.#watch && !this.#watch.failed ? await this.#watch.settle() : undefined;
    if (!settled?.complete) {
      this.#stats.walks++;
      const changes = await setup.index.walk("");
      this.#watch?.walked();
      setup.index.noteIgnored(settled?.paths ?? []);
      return changes;
    }
    this.#stats.settled++;
    return await setup.index.paths(settled.paths);
  }

  /** How the recorder has been working so far. */
  stats(): RecorderStats {
    return { watching: !!this.#watch && !this.#watch.failed, ...this.#stats };
  }

  async #beforeFiles(tool: string, paths: string[]): Promise<(() => Promise<void>) | undefined> {
    const setup = await this.#prepare();
    if (!setup) return undefined;
    const targets: { rel: string; full: string; before: FileVersion | null }[] = [];
    const skipped: { path: string; why: string }[] = [];
    for (const path of paths) {
      const full = resolve(this.#opts.workspace, path);
      const rel = await this.#relative(setup.root, full);
      if (rel === undefined) skipped.push({ path, why: "outside" });
      else if (setup.rules.own(rel)) continue;
      else if (setup.rules.ignored(rel, false)) skipped.push({ path: rel, why: "ignored" });
      else targets.push({ rel, full, before: this.#version(full, { rel, setup }) });
    }
    this.#tellSkipped(skipped);
    if (!targets.length) return undefined;
    const n = this.#n;
    return () => {
      const changes: FileChange[] = [];
      for (const t of targets) {
        const after = this.#version(t.full, { rel: t.rel, setup, record: true });
        if (!sameVersion(t.before, after)) changes.push({ path: t.rel, before: t.before, after });
      }
      this.#record(n, tool, changes);
      return Promise.resolve();
    };
  }

  /** The workspace-relative path of `full` (its folder's real path), or undefined when it is outside. */
  async #relative(root: string, full: string): Promise<string | undefined> {
    let dir = dirname(full);
    const tail = [basename(full)];
    while (true) {
      const real = await Deno.realPath(dir).catch(() => undefined);
      if (real !== undefined) {
        const at = join(real, ...tail);
        return isInside(root, at) && at !== root ? relative(root, at).split("\\").join("/") : undefined;
      }
      if (dirname(dir) === dir) return undefined;
      tail.unshift(basename(dir));
      dir = dirname(dir);
    }
  }

  /**
   * A file's current version, `null` when absent: as the index knows it when unchanged since, else read and
   * kept in the store (and, with `record`, noted in the index).
   */
  #version(full: string, at: { rel: string; setup: Setup; record?: boolean }): FileVersion | null {
    const info = lstat(full);
    if (!info?.isFile) return null;
    const known = at.setup.index.unchanged(at.rel, info);
    if (known) return known;
    const max = (this.#opts.settings?.max_file_mb ?? 10) * MB;
    let version: FileVersion;
    if (info.size > max) version = { skip: "size" };
    else {
      try {
        const hash = this.store.put(Deno.readFileSync(full));
        version = hash ? { hash, mode: (info.mode ?? 0o644) & 0o777 } : { skip: "cap" };
      } catch {
        version = { skip: "unreadable" };
      }
    }
    if (at.record) at.setup.index.record(at.rel, info, version);
    return version;
  }

  #record(n: number, tool: string, changes: FileChange[]): void {
    if (!changes.length) return;
    const records: ChangeRecord[] = changes.map((c) => ({ n, ...c, by: tool }));
    this.store.append(records);
    const skipped: { path: string; why: string }[] = [];
    for (const c of changes) {
      const v = [c.before, c.after].find((x) => x && "skip" in x) as { skip: string } | undefined;
      if (v) skipped.push({ path: c.path, why: v.skip });
    }
    this.#tellSkipped(skipped);
  }

  #tellIgnored(index: WorkspaceIndex): void {
    const fresh = [...index.ignoredChanged].filter((p) => !this.#noted.has(`ignored:${p}`));
    index.ignoredChanged.clear();
    this.#tellSkipped(fresh.map((path) => ({ path, why: "ignored" })));
  }

  /** One line naming what was not kept (each file once per session), and why. */
  #tellSkipped(skipped: { path: string; why: string }[]): void {
    const fresh = skipped.filter((s) => {
      const key = `${s.why}:${s.path}`;
      if (this.#noted.has(key)) return false;
      this.#noted.add(key);
      return true;
    });
    if (!fresh.length) return;
    const named = fresh.slice(0, 3).map((s) => `${s.path} (${WHY[s.why] ?? s.why})`).join(", ");
    const more = fresh.length > 3 ? ` and ${fresh.length - 3} more` : "";
    const cap = fresh.some((s) => s.why === "size")
      ? ` (checkpoints.max_file_mb is ${this.#opts.settings?.max_file_mb ?? 10})`
      : "";
    this.#note(`checkpoints: not kept, a rewind cannot restore them: ${named}${more}${cap}`);
  }

  #note(line: string): void {
    try {
      this.#opts.notice?.(line);
    } catch { /* a notice must not break a tool call */ }
  }

  #disable(err: unknown): void {
    if (this.#off || this.#closing) return;
    this.#off = (err as Error)?.message ?? String(err);
    this.#note(`checkpoints: off for this session: ${this.#off}`);
  }

  /** Stop the watch and the background look; save what the index knows for the next process. */
  async close(): Promise<void> {
    this.#closing = true;
    const finished = await this.#baseline?.catch(() => false);
    await this.#watch?.close();
    this.store.close();
    if (finished && !this.#off) {
      const setup = await this.#setup;
      try {
        if (setup) {
          setup.index.recheckRacy();
          this.store.writeJson("index.json", setup.index);
        }
      } catch { /* the next process looks again */ }
    }
  }
}

function sameVersion(a: FileVersion | null, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b;
  if ("hash" in a && "hash" in b) return a.hash === b.hash && a.mode === b.mode;
  return false;
}

function lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}
