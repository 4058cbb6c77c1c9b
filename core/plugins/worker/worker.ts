/**
 * Runs inside a plugin's worker (never in navi's own isolate): links the plugin's modules through blob: URLs,
 * evaluates them, runs `register(navi)` and then tool calls. `deno task embed` bundles this file with zod into
 * core/plugin_worker_js.ts, so the worker needs no file from the repository or node_modules at run time.
 * @module
 */
import { z } from "zod";
import type {
  FaultKind,
  FromWorker,
  InitMessage,
  ModuleText,
  ToolDefinitionData,
  ToWorker,
} from "../protocol.ts";
import {
  APPROVAL_CLASSES,
  errorMessage,
  normalizeResult,
  TOOL_NAME_PATTERN,
  ToolError,
  zodInputSchema,
  zodValidator,
} from "../../tool/mod.ts";

interface WorkerScope {
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  addEventListener(type: string, fn: (event: Event & { reason?: unknown; error?: unknown }) => void): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);
const urls = new Map<string, string>();
let pluginName = "plugin";

/** Replace blob: URLs in a stack or message by the module's display path. */
function readable(text: string): string {
  let out = text;
  for (const [url, file] of urls) out = out.split(url).join(file);
  return out.replace(/blob:null\/[0-9a-f-]{36}/g, "navi-plugin-runtime");
}

function describe(err: unknown): string {
  if (err instanceof Error && err.name === "NotCapable") {
    const m = /^Requires (\w+) access(?: to ("[^"]*"|\S+?))?,/.exec(err.message);
    const kind = m?.[1] ?? "this";
    const what = m?.[2] ? ` to ${m[2]}` : "";
    return `permission denied: ${pluginName} was not granted ${kind} access${what} (grant it with ` +
      `\`export const permissions\` in the plugin or plugins.<name>.permissions in config.json)`;
  }
  return readable(errorMessage(err));
}

/** Report a fault after the current task, so a result the handler already produced is sent first. */
function fault(kind: FaultKind, err: unknown): void {
  setTimeout(() =>
    post({
      type: "fault",
      kind,
      message: describe(err),
      stack: err instanceof Error && err.stack ? readable(err.stack) : undefined,
    }), 0);
}

scope.addEventListener("unhandledrejection", (e) => {
  e.preventDefault();
  fault("rejection", e.reason);
});
scope.addEventListener("error", (e) => {
  e.preventDefault();
  fault("error", e.error);
});

const realExit = Deno.exit;
Deno.exit = ((code?: number) => {
  post({ type: "fault", kind: "exit", message: `Deno.exit(${code ?? ""}) was called` });
  realExit(code);
}) as typeof Deno.exit;
const realClose = scope.close.bind(scope);
Object.getPrototypeOf(scope).close = scope.close = () => {
  post({ type: "fault", kind: "exit", message: "close() was called" });
  realClose();
};

const log = (line: string) => post({ type: "log", line: readable(line) });
captureStdio();
for (const method of ["log", "info", "warn", "error", "debug"] as const) {
  console[method] = (...args: unknown[]) =>
    log(args.map((a) => typeof a === "string" ? a : Deno.inspect(a)).join(" "));
}

/**
 * The worker's standard streams are navi's terminal: a plugin's writes to `Deno.stdout`, `Deno.stderr` and
 * `process.stdout`/`stderr` go to plugins.log instead (the host says so once), reads of stdin see its end,
 * and the runtime's internal printing is out of reach.
 */
function captureStdio(): void {
  const dec = new TextDecoder();
  const output = (stream: "stdout" | "stderr") => {
    const send = (p: Uint8Array | string) => {
      const text = typeof p === "string" ? p : dec.decode(p);
      if (text) post({ type: "output", stream, text: readable(text) });
      return typeof p === "string" ? p.length : p.length;
    };
    return {
      write: (p: Uint8Array) => Promise.resolve(send(p)),
      writeSync: send,
      writable: new WritableStream<Uint8Array>({ write: (p) => void send(p) }),
      isTerminal: () => false,
      close() {},
      node: { write: (p: Uint8Array | string, ...rest: unknown[]) => (send(p), lastCallback(rest), true) },
    };
  };
  const lastCallback = (rest: unknown[]) => {
    const cb = rest.at(-1);
    if (typeof cb === "function") queueMicrotask(() => cb());
  };
  const stdin = {
    read: () => Promise.resolve(null),
    readSync: () => null,
    readable: new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
    isTerminal: () => false,
    setRaw() {
      throw new Error("a plugin has no terminal");
    },
    close() {},
  };
  const out = output("stdout");
  const err = output("stderr");
  const define = (target: object, key: PropertyKey, value: unknown) =>
    Object.defineProperty(target, key, { value, configurable: false, writable: false });
  define(Deno, "stdout", out);
  define(Deno, "stderr", err);
  define(Deno, "stdin", stdin);
  const proc = (globalThis as unknown as { process?: object }).process;
  if (proc) {
    for (const [key, s] of [["stdout", out], ["stderr", err]] as const) {
      define(proc, key, {
        ...s.node,
        isTTY: false,
        fd: key === "stdout" ? 1 : 2,
        on() {},
        once() {},
        end() {},
      });
    }
  }
  delete (Deno as unknown as Record<symbol, unknown>)[(Deno as unknown as { internal: symbol }).internal];
}

/** Programs a plugin starts get navi's environment without its secrets and never navi's terminal. */
function guardChildren(env: Record<string, string> | null): void {
  const Real = Deno.Command;
  const away = (io: Deno.CommandOptions["stdout"]) => (io === "inherit" ? "null" : io);
  Deno.Command = class extends Real {
    #spawn: () => Deno.ChildProcess;
    constructor(command: string | URL, options: Deno.CommandOptions = {}) {
      const guarded: Deno.CommandOptions = {
        ...options,
        clearEnv: true,
        env: { ...(env ?? {}), ...(options.env ?? {}) },
        stdin: away(options.stdin ?? "null"),
        stdout: away(options.stdout),
        stderr: away(options.stderr),
      };
      super(command, guarded);
      // spawn() would inherit the streams left unset: they become "null" there.
      this.#spawn = () =>
        new Real(command, { ...guarded, stdout: guarded.stdout ?? "null", stderr: guarded.stderr ?? "null" })
          .spawn();
    }
    override spawn(): Deno.ChildProcess {
      return this.#spawn();
    }
  } as typeof Deno.Command;
}

function link(modules: ModuleText[]): string {
  const byFile = new Map<string, string>();
  let last = "";
  for (const m of modules) {
    let js = m.js;
    for (const imp of [...m.imports].sort((a, b) => b.start - a.start)) {
      js = js.slice(0, imp.start) + JSON.stringify(byFile.get(imp.target) ?? imp.target) + js.slice(imp.end);
    }
    last = URL.createObjectURL(new Blob([js], { type: "text/javascript" }));
    urls.set(last, m.file);
    byFile.set(m.file, last);
  }
  return last;
}

interface Runnable {
  validate(raw: unknown): Record<string, unknown>;
  handler(args: Record<string, unknown>, ctx: { workspace: string; signal: AbortSignal }): unknown;
}

function validateDefinition(def: unknown): { data: ToolDefinitionData; run: Runnable } {
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
  const timeoutMs = typeof d.timeoutMs === "number" && d.timeoutMs > 0 ? d.timeoutMs : undefined;
  return {
    data: {
      name,
      description: d.description,
      inputSchema: zodInputSchema(d.parameters),
      approval: d.approval as ToolDefinitionData["approval"],
      concurrencySafe: d.concurrencySafe === true,
      ...(timeoutMs ? { timeoutMs } : {}),
    },
    run: { validate: zodValidator(name, d.parameters), handler: d.handler as Runnable["handler"] },
  };
}

const tools = new Map<string, Runnable>();
const hookHandlers: ((input: unknown) => unknown)[] = [];
const running = new Map<number, AbortController>();
let workspace = "";

async function init(msg: InitMessage): Promise<void> {
  pluginName = msg.name;
  workspace = msg.api.workspace;
  guardChildren(msg.childEnv);
  let mod: Record<string, unknown>;
  try {
    mod = await import(link(msg.modules));
  } catch (err) {
    const where = /([^\s(]+\.m?[jt]s):(\d+):(\d+)/.exec(
      readable(err instanceof Error ? err.stack ?? "" : ""),
    );
    const message = describe(err).replace(/ at [^\s(]+\.m?[jt]s:\d+:\d+$/, "");
    throw new Error(`${where ? `${where[1]}:${where[2]}:${where[3]}: ` : ""}${message}`);
  }
  if (typeof mod.default !== "function") {
    throw new Error("the default export must be a function: export default function register(navi) {...}");
  }
  const defs: unknown[] = [];
  const hooks: { event: string; matcher: string }[] = [];
  let open = true;
  const api = {
    ...msg.api,
    z,
    log: (m: unknown) => log(String(m)),
    registerTool: (def: unknown) => {
      if (!open) throw new Error("registerTool must be called while register() runs");
      defs.push(def);
    },
    on: (event: unknown, a: unknown, b?: unknown) => {
      if (!open) throw new Error("navi.on must be called while register() runs");
      const handler = typeof a === "function" ? a : b;
      const matcher = typeof a === "object" && a ? (a as { matcher?: unknown }).matcher ?? "" : "";
      if (typeof event !== "string" || typeof handler !== "function" || typeof matcher !== "string") {
        throw new Error("navi.on needs an event name, an optional { matcher } and a handler function");
      }
      hooks.push({ event, matcher });
      hookHandlers.push(handler as (input: unknown) => unknown);
    },
  };
  try {
    await mod.default(api);
  } catch (err) {
    throw new Error(`register() failed: ${describe(err)}`);
  } finally {
    open = false;
  }
  const checked = defs.map(validateDefinition);
  for (const { data, run } of checked) {
    if (tools.has(data.name)) throw new Error(`tool "${data.name}" is registered twice`);
    tools.set(data.name, run);
  }
  post({ type: "ready", tools: checked.map((c) => c.data), permissions: mod.permissions ?? null, hooks });
}

async function call(id: number, name: string, args: Record<string, unknown>): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    if (name.startsWith("hook:")) return void post({ type: "result", id, result: await runHook(name, args) });
    const tool = tools.get(name);
    if (!tool) throw new ToolError(`Unknown tool: ${name}`);
    const value = normalizeResult(
      await tool.handler(tool.validate(args), { workspace, signal: controller.signal }),
    );
    try {
      post({ type: "result", id, result: value });
    } catch {
      post({ type: "result", id, result: JSON.parse(JSON.stringify(value)) });
    }
  } catch (err) {
    const stack = err instanceof Error && !(err instanceof ToolError) ? readable(err.stack ?? "") : undefined;
    post({ type: "result", id, result: { ok: false, error: describe(err) }, stack });
  } finally {
    running.delete(id);
  }
}

/** A hook's handler run on `input`; its decision travels back as plain JSON (`decision`). */
async function runHook(name: string, input: unknown): Promise<unknown> {
  const handler = hookHandlers[Number(name.slice("hook:".length))];
  if (!handler) throw new ToolError(`Unknown hook: ${name}`);
  const decision = await handler(input);
  return { ok: true, decision: decision === undefined ? null : JSON.parse(JSON.stringify(decision)) };
}

scope.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "init") {
    init(msg).catch((err) => post({ type: "failed", error: errorMessage(err) }));
  } else if (msg.type === "call") {
    void call(msg.id, msg.tool, msg.args);
  } else if (msg.type === "abort") {
    running.get(msg.id)?.abort(new ToolError(msg.reason));
  } else if (msg.type === "flush") {
    setTimeout(() => post({ type: "flushed" }), 0);
  }
};
post({ type: "booted" });
