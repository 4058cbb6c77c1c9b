import { z } from "zod";
import { errorMessage, normalizeResult, ToolError, truncateResult } from "./result.ts";
import { withTimeout } from "./timeout.ts";
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TIMEOUT_MS,
  type ParametersSchema,
  type RawToolSpec,
  type Tool,
  type ToolContext,
  type ToolOptions,
  type ToolPreview,
  type ToolSpec,
} from "./types.ts";

/** Define a tool with zod parameters; the returned tool validates, times out and truncates on its own. */
export function defineTool<S extends ParametersSchema>(spec: ToolSpec<S>): Tool {
  return buildTool<S["_zod"]["output"]>(spec, {
    inputSchema: zodInputSchema(spec.parameters),
    validate: zodValidator(spec.name, spec.parameters),
    handler: (args, ctx) => spec.handler(args, ctx),
    preview: spec.preview && ((args, ctx) => spec.preview!(args, ctx)),
    writes: spec.writes && ((args) => spec.writes!(args)),
  });
}

/** The canonical JSON Schema (without `$schema`) of a zod object: what the model is shown. */
export function zodInputSchema(parameters: ParametersSchema): Record<string, unknown> {
  const schema = z.toJSONSchema(parameters, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return canonicalSchema(schema);
}

/** Parse raw arguments (see `parseArguments`) and validate them; throws a ToolError naming each bad field. */
export function zodValidator<S extends ParametersSchema>(
  name: string,
  parameters: S,
): (raw: unknown) => S["_zod"]["output"] {
  return (raw) => {
    const parsed = parameters.safeParse(parseArguments(name, raw));
    if (!parsed.success) throw new ToolError(describeIssues(name, parsed.error));
    return parsed.data as S["_zod"]["output"];
  };
}

/** Define a tool from a JSON Schema (used by the MCP bridge). */
export function defineRawTool(spec: RawToolSpec): Tool {
  const schema = { ...spec.inputSchema };
  delete schema.$schema;
  if (schema.type !== "object") schema.type = "object";
  return buildTool(spec, {
    inputSchema: canonicalSchema(schema),
    validate: (raw) => parseArguments(spec.name, raw),
    handler: spec.handler,
  });
}

type Common = Pick<RawToolSpec, "name" | "description" | "approval"> & ToolOptions;

function buildTool<A>(
  spec: Common,
  parts: {
    inputSchema: Record<string, unknown>;
    validate: (raw: unknown) => A;
    handler: (args: A, ctx: ToolContext) => unknown;
    preview?: (args: A, ctx: ToolContext) => ToolPreview | undefined | Promise<ToolPreview | undefined>;
    writes?: (args: A) => string[];
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
    check(raw) {
      try {
        parts.validate(raw);
        return undefined;
      } catch (err) {
        return errorMessage(err);
      }
    },
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
    ...(parts.writes
      ? {
        writes(raw: unknown) {
          try {
            return parts.writes!(parts.validate(raw));
          } catch {
            return undefined;
          }
        },
      }
      : {}),
    ...(parts.preview
      ? {
        async preview(raw: unknown, ctx: ToolContext) {
          try {
            return await parts.preview!(parts.validate(raw), ctx);
          } catch {
            return undefined;
          }
        },
      }
      : {}),
  };
}

/**
 * The one rule for tool-call arguments: a JSON object (as text or already parsed); empty text means `{}`.
 * Anything else (`null`, an array, a number, a string, broken JSON) throws a ToolError naming the problem.
 */
export function parseArguments(name: string, raw: unknown): Record<string, unknown> {
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
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new ToolError(`Invalid arguments for ${name}: expected a JSON object, got ${got}.`);
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
