import type { OpenAITool, Tool, ToolRegistry } from "../tool/mod.ts";
import type { DeferredState } from "../session/mod.ts";
import type { ToolCall } from "../provider/mod.ts";
import { routeCall, type RoutedCall } from "./route.ts";
import {
  type ArrayOptions,
  buildToolArray,
  type DeferralOptions,
  type DeferralSettings,
  toolLimit,
  type ToolStep,
} from "./array.ts";
import type { ToolPool } from "./pool.ts";
import { deferredReminder, searchableNote, toolsReminder } from "./reminder.ts";
import {
  CALL_TOOL,
  callToolDefinition,
  FIND_TOOLS,
  findToolsDefinition,
  ToolSearch,
  toOpenAITool,
} from "./search.ts";

/**
 * Decides the tools array of each request of one conversation so that the provider's prompt cache holds: a
 * tool-list change is folded into the array (as `evolve` does) when that is cheap or the cache is cold, and
 * otherwise deferred: the array stays byte-identical, the model gets a reminder, and calls go through
 * `call_tool`. Past `searchAbove` (or 128) tools, further MCP tools are reached through `find_tools`.
 */
export class ToolDeferral {
  #pool: ToolPool;
  #registry: ToolRegistry;
  #s: DeferralSettings;
  #now: () => number;
  #sent?: readonly OpenAITool[];
  #announced: Map<string, OpenAITool>;
  #withdrawn: Set<string>;
  #live: readonly OpenAITool[] = [];
  #liveByName = new Map<string, OpenAITool>();
  #searchable: readonly OpenAITool[] = [];
  #noted = new Set<string>();
  #seen = new Set<string>();
  #lastRequestAt?: number;
  #meta: { call: Tool; find: Tool; list: OpenAITool[] };
  #arrayOpts: ArrayOptions;
  #json = new WeakMap<OpenAITool, string>();

  /** Offer the tools of `pool` (whose tools live in `registry`) as `opts` says. */
  constructor(pool: ToolPool, registry: ToolRegistry, opts: DeferralOptions) {
    this.#pool = pool;
    this.#registry = registry;
    this.#s = opts.settings;
    this.#now = opts.now ?? Date.now;
    this.#sent = opts.sent;
    this.#announced = new Map((opts.state?.announced ?? []).map((t) => [t.function.name, t]));
    this.#withdrawn = new Set(opts.state?.withdrawn ?? []);
    this.#lastRequestAt = opts.lastRequestAt;
    const call = callToolDefinition();
    const find = findToolsDefinition(() => this.#searchable, new ToolSearch());
    this.#meta = { call, find, list: [toOpenAITool(call), toOpenAITool(find)] };
    const kindOf = (n: string) => registry.sourceOf(n)?.kind;
    this.#arrayOpts = { settings: this.#s, meta: this.#meta.list, kindOf };
    for (const t of [...(this.#sent ?? []), ...this.#announced.values()]) this.#seen.add(t.function.name);
  }

  /** The tools array the last request sent (or a resumed session sent last); undefined before that. */
  sent(): readonly OpenAITool[] | undefined {
    return this.#sent;
  }

  /** The provider's cache is cold (the conversation was rewritten): the next request folds what is pending. */
  coldPoint(): void {
    this.#lastRequestAt = undefined;
  }

  /** The settings in force. */
  get settings(): DeferralSettings {
    return this.#s;
  }

  /** Tools the model knows from reminders only (called through `call_tool`). */
  get deferred(): string[] {
    return [...this.#announced.keys()];
  }

  /** Tools in the array that the model was told are gone. */
  get withdrawn(): string[] {
    return [...this.#withdrawn];
  }

  /** Live tools reached only through `find_tools`. */
  get searchable(): readonly OpenAITool[] {
    return this.#searchable;
  }

  /** What a resume needs to restore the deferred changes. */
  state(): DeferredState {
    return { announced: [...this.#announced.values()], withdrawn: [...this.#withdrawn] };
  }

  /** The tools array for the next request and what to tell the model; `tokens()` sizes the conversation. */
  next(opts: { conversationTokens: () => number }): ToolStep {
    const now = this.#now();
    const last = this.#lastRequestAt;
    this.#lastRequestAt = now;
    const live = this.#pool.sync().list;
    const previous = this.#sent;
    const cold = last === undefined || now - last > this.#s.cacheTtlMs;
    const pending = this.#announced.size > 0 || this.#withdrawn.size > 0;
    const none = { tools: previous!, changed: false, reminder: "", notice: "", stateChanged: false };
    if (previous && live === this.#live && !(cold && pending)) return none;
    const restored = previous !== undefined && this.#live.length === 0;
    this.#setLive(live);
    if (!previous) return this.#fold([], { initial: true });
    if (restored && previous.length >= toolLimit(this.#s)) {
      // A resumed session whose array was full: the earlier process already pointed the model at find_tools.
      const known = this.#known();
      for (const t of live) if (!known.has(t.function.name)) this.#noted.add(t.function.name);
    }
    const diff = this.#diff();
    if (!diff.added.length && !diff.changed.length && !diff.removed.length && !(cold && pending)) {
      return none;
    }
    const { defer, deferAboveTokens } = this.#s;
    const fold = defer === "never" || cold || !this.#hasMeta(previous) ||
      (defer === "auto" && opts.conversationTokens() <= deferAboveTokens);
    return fold ? this.#fold(previous, { initial: false }) : this.#defer(previous, diff);
  }

  /** Resolve a call of the last request to the tool that runs it (unwrapping `call_tool`). */
  route(call: ToolCall): RoutedCall {
    const meta = this.#sent !== undefined && this.#hasMeta(this.#sent);
    return routeCall(call, {
      meta: meta ? { find: this.#meta.find } : undefined,
      // Any tool this conversation has offered may be called; approval (plan mode included) decides the rest.
      lookup: (name) => this.#seen.has(name) ? this.#registry.get(name) ?? "removed" : undefined,
    });
  }

  /** What `/tools` shows: the array as the next request would send it, and the tools outside it. */
  view(): { tools: readonly OpenAITool[]; deferred: string[]; withdrawn: string[]; searchable: string[] } {
    if (this.#sent) {
      return {
        tools: this.#sent,
        deferred: this.deferred,
        withdrawn: this.withdrawn,
        searchable: this.#searchable.map((t) => t.function.name),
      };
    }
    const live = this.#pool.peek();
    const tools = buildToolArray([], live, this.#arrayOpts);
    const inArray = new Set(tools.map((t) => t.function.name));
    return {
      tools,
      deferred: [],
      withdrawn: [],
      searchable: live.filter((t) => !inArray.has(t.function.name)).map((t) => t.function.name),
    };
  }

  #setLive(live: readonly OpenAITool[]): void {
    this.#live = live;
    this.#liveByName = new Map(live.map((t) => [t.function.name, t]));
    for (const t of live) this.#seen.add(t.function.name);
    const known = this.#known();
    const inArray = new Set((this.#sent ?? []).map((t) => t.function.name));
    this.#searchable = live.filter((t) => !known.has(t.function.name) && !inArray.has(t.function.name));
  }

  #hasMeta(list: readonly OpenAITool[]): boolean {
    return list.some((t) => t.function.name === CALL_TOOL);
  }

  #same(a: OpenAITool, b: OpenAITool): boolean {
    return a === b || this.#jsonOf(a) === this.#jsonOf(b);
  }

  #jsonOf(t: OpenAITool): string {
    let s = this.#json.get(t);
    if (s === undefined) this.#json.set(t, s = JSON.stringify(t));
    return s;
  }

  /** What the model knows as callable: the array (less withdrawn tools) overridden by announced definitions. */
  #known(): Map<string, OpenAITool> {
    const known = new Map<string, OpenAITool>();
    for (const t of this.#sent ?? []) {
      const name = t.function.name;
      if (name !== CALL_TOOL && name !== FIND_TOOLS && !this.#withdrawn.has(name)) known.set(name, t);
    }
    for (const [name, t] of this.#announced) known.set(name, t);
    return known;
  }

  #diff(): { added: OpenAITool[]; changed: OpenAITool[]; removed: string[] } {
    const known = this.#known();
    const added: OpenAITool[] = [];
    const changed: OpenAITool[] = [];
    for (const t of this.#live) {
      const k = known.get(t.function.name);
      if (!k) {
        if (!this.#noted.has(t.function.name)) added.push(t);
      } else if (!this.#same(k, t)) changed.push(t);
    }
    const removed = [...known.keys()].filter((n) => !this.#liveByName.has(n));
    for (const n of this.#noted) if (!this.#liveByName.has(n)) this.#noted.delete(n);
    return { added, changed, removed };
  }

  #fold(previous: readonly OpenAITool[], opts: { initial: boolean }): ToolStep {
    const known = opts.initial ? new Map<string, OpenAITool>() : this.#known();
    const noted = new Set(this.#noted);
    const tools = buildToolArray(previous, this.#live, this.#arrayOpts);
    const stateChanged = this.#announced.size > 0 || this.#withdrawn.size > 0;
    this.#sent = tools;
    this.#announced.clear();
    this.#withdrawn.clear();
    const inArray = new Set(tools.map((t) => t.function.name));
    this.#searchable = this.#live.filter((t) => !inArray.has(t.function.name));
    this.#noted = new Set(this.#searchable.map((t) => t.function.name));
    const isMeta = (n: string) => n === CALL_TOOL || n === FIND_TOOLS;
    const changes = {
      added: tools.map((t) => t.function.name).filter((n) => !isMeta(n) && !known.has(n)),
      removed: [...known.keys()].filter((n) => !this.#liveByName.has(n)),
      changed: tools.filter((t) => known.has(t.function.name) && !this.#same(known.get(t.function.name)!, t))
        .map((t) => t.function.name),
    };
    const names = opts.initial ? "" : toolsReminder(changes);
    const note = searchableNote(this.#searchable.filter((t) => !noted.has(t.function.name)), {
      origin: (n) => this.#registry.sourceOf(n)?.origin,
      initial: opts.initial,
    });
    const reminder = [names, note].filter(Boolean).join("\n");
    const notice = [names, note ? `${this.#searchable.length} tools are reached through ${FIND_TOOLS}.` : ""]
      .filter(Boolean).join(" ");
    return { tools, changed: tools !== previous, reminder, notice, stateChanged };
  }

  #defer(
    previous: readonly OpenAITool[],
    diff: { added: OpenAITool[]; changed: OpenAITool[]; removed: string[] },
  ): ToolStep {
    const limit = toolLimit(this.#s);
    const admitted: OpenAITool[] = [];
    const overflow: OpenAITool[] = [];
    for (const t of diff.added) {
      if (previous.length + this.#announced.size < limit) {
        this.#announced.set(t.function.name, t);
        this.#withdrawn.delete(t.function.name);
        admitted.push(t);
      } else overflow.push(t);
    }
    for (const t of diff.changed) this.#announced.set(t.function.name, t);
    for (const name of diff.removed) {
      this.#announced.delete(name);
      if (previous.some((t) => t.function.name === name)) this.#withdrawn.add(name);
    }
    this.#setLive(this.#live);
    for (const t of overflow) this.#noted.add(t.function.name);
    const change = { added: admitted, changed: diff.changed, removed: diff.removed };
    const note = searchableNote(overflow, {
      origin: (n) => this.#registry.sourceOf(n)?.origin,
      initial: false,
    });
    const reminder = [
      admitted.length || diff.changed.length || diff.removed.length ? deferredReminder(change) : "",
      note,
    ].filter(Boolean).join("\n");
    const names = toolsReminder({
      added: admitted.map((t) => t.function.name),
      removed: diff.removed,
      changed: diff.changed.map((t) => t.function.name),
    });
    const notice = [
      names
        ? `${names} (deferred: the tools array is unchanged; the model calls them through ${CALL_TOOL})`
        : "",
      overflow.length ? `${overflow.length} new tools are reached through ${FIND_TOOLS}.` : "",
    ].filter(Boolean).join(" ");
    return { tools: previous, changed: false, reminder, notice, stateChanged: true };
  }
}
