/**
 * Turns a plugin's source files into linked-ready JavaScript modules (loaded only when a plugin must be
 * evaluated, never on a warm start): types stripped, relative imports resolved inside the plugin, the
 * `permissions` declaration read as a literal. Parsing is acorn's; nothing here evaluates plugin code.
 * @module
 */
import { parse } from "acorn";
import { stripTypeScriptTypes } from "node:module";
import { posix } from "node:path";
import { parsePermissions } from "../config/mod.ts";
import type { PluginPermissions } from "./api.ts";
import type { ModuleText } from "./protocol.ts";
import type { PluginSource } from "./source.ts";
import { errorMessage } from "../tool/mod.ts";

/** A plugin ready for its worker. */
export interface CompiledPlugin {
  /** Dependencies first, the entry module last. */
  modules: ModuleText[];
  /** `export const permissions` of the entry module, or null when it declares none. */
  declared: PluginPermissions | null;
}

// deno-lint-ignore no-explicit-any
type Node = any;

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

class CompileError extends Error {}

function at(file: string, node: Node): string {
  return `${file}:${node.loc.start.line}:${node.loc.start.column + 1}`;
}

function literal(node: Node, file: string): unknown {
  const bad = () => {
    throw new CompileError(
      `${at(file, node)}: permissions must be a literal: { read?, write?, net?, env?, run? }, each true, ` +
        "false or a list of strings",
    );
  };
  if (node.type === "Literal" && (typeof node.value === "boolean" || typeof node.value === "string")) {
    return node.value;
  }
  if (node.type === "TemplateLiteral" && !node.expressions.length) return node.quasis[0].value.cooked;
  if (node.type === "ArrayExpression") return node.elements.map((e: Node) => (e ? literal(e, file) : bad()));
  if (node.type === "ObjectExpression") {
    const out: Record<string, unknown> = {};
    for (const p of node.properties) {
      if (p.type !== "Property" || p.computed || p.kind !== "init" || p.method) bad();
      out[p.key.type === "Identifier" ? p.key.name : String(p.key.value)] = literal(p.value, file);
    }
    return out;
  }
  return bad();
}

function declaredPermissions(ast: Node, file: string): PluginPermissions | null {
  for (const stmt of ast.body) {
    if (stmt.type !== "ExportNamedDeclaration") continue;
    if (stmt.declaration?.type === "VariableDeclaration") {
      for (const d of stmt.declaration.declarations) {
        if (d.id.type !== "Identifier" || d.id.name !== "permissions") continue;
        if (!d.init || stmt.declaration.kind !== "const") {
          throw new CompileError(`${at(file, d)}: declare permissions as export const permissions = {...}`);
        }
        const parsed = parsePermissions(literal(d.init, file));
        if (!parsed.ok) throw new CompileError(`${at(file, d.init)}: permissions.${parsed.error}`);
        return parsed.permissions;
      }
    }
    for (const s of stmt.specifiers ?? []) {
      if ((s.exported.name ?? s.exported.value) === "permissions") {
        throw new CompileError(`${at(file, s)}: declare permissions as export const permissions = {...}`);
      }
    }
  }
  return null;
}

function parseModule(js: string, file: string): Node {
  try {
    return parse(js, { ecmaVersion: "latest", sourceType: "module", locations: true });
  } catch (err) {
    const loc = (err as { loc?: { line: number; column: number } }).loc;
    const message = errorMessage(err).replace(/\s*\(\d+:\d+\)$/, "");
    throw new CompileError(
      `syntax error at ${file}${loc ? `:${loc.line}:${loc.column + 1}` : ""}: ${message}`,
    );
  }
}

function importSources(ast: Node): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    if (!node || typeof node.type !== "string") return;
    if (
      (node.type === "ImportDeclaration" || node.type === "ExportAllDeclaration" ||
        node.type === "ExportNamedDeclaration") && node.source
    ) out.push(node.source);
    if (node.type === "ImportExpression" && node.source.type === "Literal") out.push(node.source);
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child === "object" && key !== "loc") visit(child);
    }
  };
  visit(ast);
  return out;
}

/** Strip, parse and order a plugin's modules; every error names `file:line:column`. */
export function compilePlugin(source: PluginSource): CompiledPlugin {
  const show = (rel: string) => `${source.prefix}${rel}`;
  const done = new Map<string, ModuleText>();
  const order: ModuleText[] = [];
  let declared: PluginPermissions | null = null;
  const visit = (rel: string, chain: string[]) => {
    if (done.has(rel)) return;
    if (chain.includes(rel)) {
      throw new CompileError(
        `import cycle ${[...chain, rel].map(show).join(" -> ")} (not supported in plugins)`,
      );
    }
    const text = source.files.get(rel)!;
    let js: string;
    try {
      js = toJavaScript(text);
    } catch (err) {
      const m = errorMessage(err);
      throw new CompileError(
        m.startsWith("syntax error at ") ? m.replace("at ", `at ${show(rel)}:`) : `${show(rel)}: ${m}`,
      );
    }
    const ast = parseModule(js, show(rel));
    if (rel === source.entry) declared = declaredPermissions(ast, show(rel));
    const imports: ModuleText["imports"] = [];
    for (const node of importSources(ast)) {
      const spec = String(node.value);
      if (spec.startsWith("node:")) continue;
      if (!spec.startsWith("./") && !spec.startsWith("../")) {
        throw new CompileError(
          `${at(show(rel), node)}: cannot import ${JSON.stringify(spec)}: a plugin imports only its own ` +
            "files (relative paths) and node: built-ins",
        );
      }
      const target = posix.normalize(posix.join(posix.dirname(rel), spec));
      if (target.startsWith("../") || !source.files.has(target) || source.prefix === "") {
        const why = source.prefix === ""
          ? "a single-file plugin imports no other file (make it a folder with mod.ts)"
          : target.startsWith("../")
          ? "it is outside the plugin folder"
          : "no such module file in the plugin folder";
        throw new CompileError(`${at(show(rel), node)}: cannot import ${JSON.stringify(spec)}: ${why}`);
      }
      visit(target, [...chain, rel]);
      imports.push({ start: node.start, end: node.end, target: show(target) });
    }
    const mod = { file: show(rel), js, imports };
    done.set(rel, mod);
    order.push(mod);
  };
  visit(source.entry, []);
  return { modules: order, declared };
}
