/**
 * Tool definitions read from a plugin's source without running it, for plugins whose definitions are data:
 * one module whose top level only declares (functions, `export const permissions`, literal constants) and
 * whose `register(navi)` only calls `navi.registerTool({...})` with literal fields, a function as handler and
 * `navi.z` schemas built from literals. Those schemas are rebuilt with navi's own zod (the same version the
 * worker has) from data alone: no function, getter or value of the plugin is ever called, so nothing of the
 * plugin runs in navi's process. Anything else returns undefined and the plugin is evaluated in its own worker
 * as before. Either way the plugin's worker checks the definitions at its first call (see PluginLoader).
 * @module
 */
import { parse } from "acorn";
import { z } from "zod";
import { APPROVAL_CLASSES, TOOL_NAME_PATTERN, zodInputSchema } from "../tool/mod.ts";
import type { CompiledPlugin } from "./compile.ts";
import type { ToolDefinitionData } from "./protocol.ts";

// deno-lint-ignore no-explicit-any
type Node = any;

/** Thrown inside the reader when the source is not plain data: the plugin goes to a worker. */
class NotStatic extends Error {}
const no = (): never => {
  throw new NotStatic();
};

/** zod builders the reader may call on `navi.z`, with data or schemas as arguments. */
const Z_BUILDERS = new Set([
  "object",
  "string",
  "number",
  "int",
  "boolean",
  "array",
  "enum",
  "literal",
  "union",
  "optional",
  "nullable",
  "record",
  "tuple",
  "any",
  "unknown",
  "null",
]);

/** Schema methods the reader may call, with data arguments. */
const SCHEMA_METHODS = new Set([
  "describe",
  "optional",
  "nullable",
  "nullish",
  "default",
  "min",
  "max",
  "length",
  "int",
  "positive",
  "nonnegative",
  "negative",
  "nonpositive",
  "gt",
  "gte",
  "lt",
  "lte",
  "email",
  "url",
  "uuid",
  "array",
  "strict",
  "passthrough",
  "nonempty",
  "trim",
  "meta",
]);

const isZod = (v: unknown): v is z.ZodType => v instanceof z.ZodType;
const ZOD = Symbol("navi.z");

function data(node: Node): unknown {
  switch (node.type) {
    case "Literal":
      return node.regex || typeof node.value === "bigint" ? no() : node.value;
    case "TemplateLiteral":
      return node.expressions.length ? no() : node.quasis[0].value.cooked;
    case "UnaryExpression":
      return node.operator === "-" && node.argument.type === "Literal" &&
          typeof node.argument.value === "number"
        ? -node.argument.value
        : no();
    case "BinaryExpression": {
      const [a, b] = [data(node.left), data(node.right)];
      return node.operator === "+" && typeof a === "string" && typeof b === "string" ? a + b : no();
    }
    case "ArrayExpression":
      return node.elements.map((e: Node) => (e && e.type !== "SpreadElement" ? data(e) : no()));
    case "ObjectExpression":
      return objectOf(node, data);
    default:
      return no();
  }
}

function key(p: Node): string {
  if (p.type !== "Property" || p.computed || p.kind !== "init") no();
  return p.key.type === "Identifier" ? p.key.name : typeof p.key.value === "string" ? p.key.value : no();
}

function objectOf(node: Node, value: (n: Node) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of node.properties) {
    const k = key(p);
    if (p.method || k === "__proto__" || Object.hasOwn(out, k)) no();
    out[k] = value(p.value);
  }
  return out;
}

/** A schema expression over `navi.z` (`zName`: the register parameter's name), rebuilt with navi's zod. */
function schema(node: Node, nav: string): unknown {
  if (node.type === "MemberExpression" && !node.computed && node.property.name === "z") {
    return node.object.type === "Identifier" && node.object.name === nav ? ZOD : no();
  }
  if (node.type === "ObjectExpression") return objectOf(node, (n) => schema(n, nav));
  if (node.type === "ArrayExpression") {
    return node.elements.map((e: Node) => (e && e.type !== "SpreadElement" ? schema(e, nav) : no()));
  }
  if (node.type !== "CallExpression") return data(node);
  const callee = node.callee;
  if (callee.type !== "MemberExpression" || callee.computed || node.optional) no();
  const target = schema(callee.object, nav);
  const name = callee.property.name as string;
  const args = node.arguments.map((a: Node) => (a.type === "SpreadElement" ? no() : schema(a, nav)));
  if (args.some((a: unknown) => a === ZOD)) no();
  if (target === ZOD) {
    if (!Z_BUILDERS.has(name)) no();
    return (z as unknown as Record<string, (...a: unknown[]) => unknown>)[name](...args);
  }
  if (!isZod(target) || !SCHEMA_METHODS.has(name)) no();
  const method = (target as unknown as Record<string, unknown>)[name];
  return typeof method === "function" ? method.apply(target, args) : no();
}

const isFunction = (n: Node) => n.type === "ArrowFunctionExpression" || n.type === "FunctionExpression";

function definition(arg: Node, nav: string): ToolDefinitionData {
  if (arg?.type !== "ObjectExpression") no();
  const fields: Record<string, unknown> = {};
  let handler = false;
  for (const p of arg.properties) {
    const k = key(p);
    if (k === "handler") handler = p.method || isFunction(p.value) ? true : no();
    else if (p.method || Object.hasOwn(fields, k)) no();
    else fields[k] = k === "parameters" ? schema(p.value, nav) : data(p.value);
  }
  const { name, description, parameters, approval, concurrencySafe, timeoutMs } = fields;
  const known = new Set(["name", "description", "parameters", "approval", "concurrencySafe", "timeoutMs"]);
  if (!handler || Object.keys(fields).some((k) => !known.has(k))) no();
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) no();
  if (typeof description !== "string" || !description.trim()) no();
  if (!(parameters instanceof z.ZodObject) || !APPROVAL_CLASSES.includes(approval as never)) no();
  if (concurrencySafe !== undefined && typeof concurrencySafe !== "boolean") no();
  if (timeoutMs !== undefined && typeof timeoutMs !== "number") no();
  const timeout = typeof timeoutMs === "number" && timeoutMs > 0 ? timeoutMs : undefined;
  return {
    name: name as string,
    description: description as string,
    inputSchema: zodInputSchema(parameters as z.ZodObject),
    approval: approval as ToolDefinitionData["approval"],
    concurrencySafe: concurrencySafe === true,
    ...(timeout ? { timeoutMs: timeout } : {}),
  };
}

/** Top-level statements that declare without running plugin code; the default export is returned. */
function registerFunction(ast: Node): Node {
  let register: Node;
  for (const stmt of ast.body) {
    if (stmt.type === "FunctionDeclaration" && !stmt.async && !stmt.generator) continue;
    if (stmt.type === "VariableDeclaration" && stmt.kind === "const") {
      for (const d of stmt.declarations) if (d.id.type !== "Identifier" || !d.init) no();
      stmt.declarations.forEach((d: Node) => data(d.init));
      continue;
    }
    if (stmt.type === "ExportNamedDeclaration" && !stmt.source && stmt.declaration) {
      const decl = stmt.declaration;
      if (decl.type === "VariableDeclaration" && decl.kind === "const") {
        decl.declarations.forEach((d: Node) => (d.id.type === "Identifier" && d.init ? data(d.init) : no()));
        continue;
      }
      if (decl.type === "FunctionDeclaration") continue;
      no();
    }
    if (stmt.type === "ExportDefaultDeclaration" && !register) {
      const d = stmt.declaration;
      if (d.type === "FunctionDeclaration" || isFunction(d)) register = d;
      else no();
      continue;
    }
    no();
  }
  return register ?? no();
}

/**
 * The definitions of `compiled` when they can be read without evaluating it (see the module note), else
 * undefined (the plugin is then evaluated in its worker, which also reports any error properly).
 */
export function staticDefinitions(compiled: CompiledPlugin): ToolDefinitionData[] | undefined {
  if (compiled.modules.length !== 1) return undefined;
  try {
    const ast = parse(compiled.modules[0].js, { ecmaVersion: "latest", sourceType: "module" });
    const register = registerFunction(ast);
    if (register.async || register.generator || register.params.length !== 1) no();
    const param = register.params[0];
    if (param.type !== "Identifier" || register.body.type !== "BlockStatement") no();
    const nav = param.name as string;
    const out: ToolDefinitionData[] = [];
    for (const stmt of register.body.body) {
      const call = stmt.type === "ExpressionStatement" ? stmt.expression : no();
      const callee = call.type === "CallExpression" && !call.optional ? call.callee : no();
      if (callee.type !== "MemberExpression" || callee.computed || callee.property.name !== "registerTool") {
        no();
      }
      if (callee.object.type !== "Identifier" || callee.object.name !== nav || call.arguments.length !== 1) {
        no();
      }
      out.push(definition(call.arguments[0], nav));
    }
    const names = out.map((d) => d.name);
    return new Set(names).size === names.length ? out : undefined;
  } catch {
    // NotStatic, or zod refusing the data (a bad argument): the worker evaluates it and says what is wrong.
    return undefined;
  }
}
