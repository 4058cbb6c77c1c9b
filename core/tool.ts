import { z } from "zod";

/** How much a tool can change: decides who must approve a call. */
export type ApprovalClass = "read_only" | "write" | "command";
export const APPROVAL_CLASSES: readonly ApprovalClass[] = ["read_only", "write", "command"];

/** Every tool result: `ok` plus fields; `_`-prefixed fields are control signals, never sent to the model. */
export type ToolResult =
  | ({ ok: true } & Record<string, unknown>)
  | ({ ok: false; error: string } & Record<string, unknown>);

/** A request for approval of something beyond the tool's own class (e.g. a path outside the workspace). */
export interface ConfirmRequest {
  reason: string;
  detail: string;
}

/** The narrow context a tool handler receives. */
export interface ToolContext {
  workspace: string;
  signal: AbortSignal;
  /** Ask whether an out-of-class action may go ahead; resolves false when refused. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** Live output of a running tool (e.g. bash), shown to the user, not to the model. */
  onOutput?(chunk: string): void;
  /** Environment for child processes (navi's secrets removed); defaults to the process environment. */
  childEnv?(): Record<string, string>;
}

/** Where a tool came from; the tool pool orders by it. */
export interface ToolSource {
  kind: "builtin" | "plugin" | "mcp";
  origin: string;
}

/** The definition shape of a zod-typed tool (built-ins and plugins). */
export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  parameters: S;
  approval: ApprovalClass;
  handler(args: z.output<S>, ctx: ToolContext): unknown;
  concurrencySafe?: boolean;
  timeoutMs?: number;
  maxOutputChars?: number;
}

/** A tool whose parameters are already JSON Schema (MCP tools); the server validates arguments. */
export interface RawToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  approval: ApprovalClass;
  handler(args: Record<string, unknown>, ctx: ToolContext): unknown;
  concurrencySafe?: boolean;
  timeoutMs?: number;
  maxOutputChars?: number;
}

/** A ready-to-register tool. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly approval: ApprovalClass;
  readonly concurrencySafe: boolean;
  readonly timeoutMs: number;
  readonly maxOutputChars: number;
  /** JSON Schema of the arguments, without `$schema`. */
  readonly inputSchema: Record<string, unknown>;
  /** Validate raw arguments (JSON text or object), run the handler, apply timeout and truncation. Never throws. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

/** Thrown inside a handler to fail the call with a message meant for the model. */
export class ToolError extends Error {}

/** Define a tool with zod parameters; the returned tool validates, times out and truncates on its own. */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): Tool {
  const schema = z.toJSONSchema(spec.parameters, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  const validate = (raw: unknown): z.output<S> => {
    const parsed = spec.parameters.safeParse(parseArgs(spec.name, raw));
    if (!parsed.success) throw new ToolError(describeIssues(spec.name, parsed.error));
    return parsed.data;
  };
  return buildTool(spec, {
    inputSchema: canonicalSchema(schema),
    validate,
    handler: (args, ctx) => spec.handler(args, ctx),
  });
}

/** Define a tool from a JSON Schema (used by the MCP bridge). */
export function defineRawTool(spec: RawToolSpec): Tool {
  const schema = { ...spec.inputSchema };
  delete schema.$schema;
  if (schema.type !== "object") schema.type = "object";
  return buildTool(spec, {
    inputSchema: canonicalSchema(schema),
    validate: (raw) => parseArgs(spec.name, raw),
    handler: spec.handler,
  });
}

type Common = Pick<
  ToolSpec<z.ZodObject>,
  "name" | "description" | "approval" | "concurrencySafe" | "timeoutMs" | "maxOutputChars"
>;

function buildTool<A>(
  spec: Common,
  parts: {
    inputSchema: Record<string, unknown>;
    validate: (raw: unknown) => A;
    handler: (args: A, ctx: ToolContext) => unknown;
  },
): Tool {
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputChars = spec.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  return {
    name: spec.name,
    description: spec.description,
    approval: spec.approval,
    concurrencySafe: spec.concurrencySafe ?? false,
    timeoutMs,
    maxOutputChars,
    inputSchema: parts.inputSchema,
    async run(raw, ctx) {
      try {
        const args = parts.validate(raw);
        const result = await withTimeout(ctx, (inner) => parts.handler(args, inner), {
          name: spec.name,
          timeoutMs,
        });
        return truncateResult(normalizeResult(result), maxOutputChars);
      } catch (err) {
        return { ok: false, error: errorMessage(err) };
      }
    },
  };
}

function parseArgs(name: string, raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return {};
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ToolError(
        `Invalid arguments for ${name}: not valid JSON. Send the arguments as one JSON object.`,
      );
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ToolError(`Invalid arguments for ${name}: expected a JSON object.`);
  }
  return value as Record<string, unknown>;
}

function describeIssues(name: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join(".") : "(arguments)";
    return `${where}: ${issue.message}`;
  });
  return `Invalid arguments for ${name}: ${parts.join("; ")}. Fix these fields and call the tool again.`;
}

async function withTimeout<T>(
  ctx: ToolContext,
  fn: (ctx: ToolContext) => T,
  opts: { name: string; timeoutMs: number },
): Promise<Awaited<T>> {
  if (ctx.signal.aborted) throw new ToolError("Aborted by the user");
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ToolError(`${opts.name} timed out after ${opts.timeoutMs} ms`);
      reject(err);
      controller.abort(err);
    }, opts.timeoutMs);
    onAbort = () => {
      const err = new ToolError("Aborted by the user");
      reject(err);
      controller.abort(err);
    };
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  const running = Promise.resolve().then(() => fn({ ...ctx, signal: controller.signal }));
  try {
    return await Promise.race([running, stop]);
  } catch (err) {
    if (controller.signal.aborted) await settleWithin(running, CLEANUP_GRACE_MS);
    throw err;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort!);
  }
}

/** How long an aborted or timed-out handler may take to clean up (kill its process) before the call returns. */
const CLEANUP_GRACE_MS = 1000;

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => {}), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** Turn whatever a handler returned into a ToolResult. */
export function normalizeResult(value: unknown): ToolResult {
  if (typeof value === "string") return { ok: true, output: value };
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    if (obj.ok === false) {
      return { ...obj, ok: false, error: typeof obj.error === "string" ? obj.error : "Tool failed" };
    }
    return { ...obj, ok: true };
  }
  return value === undefined ? { ok: true } : { ok: true, result: value };
}

const MARKER = (n: number) => `\n[... truncated ${n} characters]`;

/** Cut a result whose model-visible JSON exceeds `limit` characters; marks it `truncated: true`. */
export function truncateResult(result: ToolResult, limit: number): ToolResult {
  let size = toModelContent(result).length;
  if (size <= limit) return result;
  const out: Record<string, unknown> = { ...result, truncated: true };
  const strings = Object.keys(out)
    .filter((k) => !k.startsWith("_") && typeof out[k] === "string" && k !== "error")
    .sort((a, b) => (out[b] as string).length - (out[a] as string).length);
  for (const key of strings) {
    size = toModelContent(out as ToolResult).length;
    if (size <= limit) break;
    const text = out[key] as string;
    const keep = Math.max(0, text.length - (size - limit) - 64);
    out[key] = text.slice(0, keep) + MARKER(text.length - keep);
  }
  if (toModelContent(out as ToolResult).length > limit) {
    const json = toModelContent(result);
    const control = Object.fromEntries(Object.entries(result).filter(([k]) => k.startsWith("_")));
    return {
      ...control,
      ok: result.ok,
      truncated: true,
      output: json.slice(0, limit) + MARKER(json.length - limit),
    } as ToolResult;
  }
  return out as ToolResult;
}

/** The tool message content the model receives: the result without `_` control fields, as JSON. */
export function toModelContent(result: ToolResult): string {
  return JSON.stringify(result, (key, value) => (key.startsWith("_") ? undefined : value));
}

/** The message of any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function canonicalSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const sortKeys = (value: unknown, keepOrder: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => sortKeys(v, false));
    if (!value || typeof value !== "object") return value;
    const keys = Object.keys(value).filter((k) => !isNoiseBound(k, (value as Record<string, unknown>)[k]));
    if (!keepOrder) keys.sort();
    return Object.fromEntries(
      keys.map((k) => [k, sortKeys((value as Record<string, unknown>)[k], k === "properties" && !keepOrder)]),
    );
  };
  return sortKeys(schema, false) as Record<string, unknown>;
}

function isNoiseBound(key: string, value: unknown): boolean {
  return (key === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
    (key === "minimum" && value === Number.MIN_SAFE_INTEGER);
}
