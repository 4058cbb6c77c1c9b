// The module graph keeps the layout honest: the terminal front (core/cli/) is imported by nobody outside it,
// the engine (the rest of core/) never imports tools/ or plugins/, tools reach the engine through
// core/mod.ts, one subsystem folder reaches another only through its face (mod.ts), core/mod.ts re-exports
// faces, and no import cycle exists.
import { relative } from "node:path";
import { assertEquals, ROOT } from "./helpers.ts";

interface Edge {
  from: string;
  to: string;
  /** An npm package or a remote module (not a file of the repository). */
  external?: boolean;
  /** Only a type import: erased before the code runs. */
  typeOnly?: boolean;
  /** Only `import()`: evaluated when that code runs, not when the importer loads. */
  dynamic?: boolean;
}

/** Local module edges (code, type-only and dynamic imports) reachable from `roots`, as repository paths. */
export async function localEdges(roots: string[]): Promise<Edge[]> {
  const edges = new Map<string, Edge>();
  for (const root of roots) {
    const { stdout, code } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", root],
      cwd: ROOT,
      stdout: "piped",
      stderr: "null",
    }).output();
    assertEquals(code, 0, `deno info ${root}`);
    const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
      modules: {
        specifier: string;
        dependencies?: { code?: { specifier: string }; type?: { specifier: string }; isDynamic?: boolean }[];
      }[];
    };
    for (const m of graph.modules) {
      if (!m.specifier.startsWith("file://")) continue;
      const from = relative(ROOT, new URL(m.specifier).pathname);
      for (const dep of m.dependencies ?? []) {
        for (
          const [target, typeOnly] of [[dep.code?.specifier, false], [dep.type?.specifier, true]] as const
        ) {
          if (!target) continue;
          const local = target.startsWith("file://");
          const to = local ? relative(ROOT, new URL(target).pathname) : target;
          const key = `${from}>${to}`;
          const known = edges.get(key);
          const dynamic = dep.isDynamic === true;
          if (known) {
            known.typeOnly &&= typeOnly;
            known.dynamic &&= dynamic;
          } else edges.set(key, { from, to, typeOnly, dynamic, ...(local ? {} : { external: true }) });
        }
      }
    }
  }
  return [...edges.values()];
}

const isCli = (p: string) => p.startsWith("core/cli/");
const isEngine = (p: string) => p.startsWith("core/") && !isCli(p);
/** The subsystem folder of a file of core/ (`core/agent`), or undefined for core/'s root files. */
const folderOf = (p: string) => {
  const parts = p.split("/");
  return parts[0] === "core" && parts.length > 2 ? `core/${parts[1]}` : undefined;
};
const isFace = (p: string) => folderOf(p) !== undefined && p === `${folderOf(p)}/mod.ts`;

/** Edges that break a layout rule, each as `from -> to (rule)`. */
export function layoutViolations(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    if (isCli(to) && !isCli(from) && from !== "main.ts") {
      out.push(`${from} -> ${to} (only core/cli/ imports core/cli/)`);
    }
    if (isEngine(from) && (to.startsWith("tools/") || to.startsWith("plugins/"))) {
      out.push(`${from} -> ${to} (the engine never imports tools/ or plugins/)`);
    }
    if (from.startsWith("tools/") && to.startsWith("core/") && to !== "core/mod.ts") {
      out.push(`${from} -> ${to} (tools/ import the engine through core/mod.ts)`);
    }
    const target = folderOf(to);
    if (from.startsWith("core/") && target && folderOf(from) !== target && !isFace(to) && !isCli(to)) {
      out.push(`${from} -> ${to} (another subsystem is reached through ${target}/mod.ts)`);
    }
    if (from === "core/mod.ts" && to.startsWith("core/") && !isFace(to) && folderOf(to) !== undefined) {
      out.push(`${from} -> ${to} (core/mod.ts re-exports faces, not files)`);
    }
  }
  return out;
}

/**
 * npm or remote modules that loading `root` evaluates, reached through local files: type-only imports and
 * `import()` (evaluated later, when that code runs) do not count.
 */
export function externalCode(edges: Edge[], root: string): string[] {
  const seen = new Set([root]);
  const queue = [root];
  const found = new Set<string>();
  while (queue.length) {
    const node = queue.shift()!;
    for (const e of edges) {
      if (e.from !== node || e.typeOnly || e.dynamic) continue;
      if (e.external) found.add(e.to);
      else if (!seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return [...found].filter((s) => !s.startsWith("node:")).sort();
}

/** Every import cycle, each as the list of modules around it (found by depth-first search). */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (state.get(to) === "open") found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

const ROOTS = [
  "main.ts",
  "core/cli/mod.ts",
  "tools/mod.ts",
  "plugins/embedded.ts",
  "core/plugins/worker/worker.ts",
];

Deno.test("the module graph keeps the layout: core/cli only from inside, engine without tools/plugins, faces, no cycles", async () => {
  const edges = await localEdges(ROOTS);
  const local = edges.filter((e) => !e.external);
  const files = new Set(local.flatMap((e) => [e.from, e.to]));
  for (
    const f of ["core/cli/mod.ts", "core/mod.ts", "core/mcp/mod.ts", "tools/bash.ts", "core/agent/agent.ts"]
  ) {
    assertEquals(files.has(f), true, `${f} is in the graph`);
  }
  assertEquals(layoutViolations(local), []);
  assertEquals(cycles(local), []);
});

Deno.test("core/ keeps at most 8 files in its root; every other file is in a subsystem folder with a mod.ts", async () => {
  const root: string[] = [];
  for await (const e of Deno.readDir(`${ROOT}/core`)) {
    if (e.isFile) root.push(e.name);
    else if (e.isDirectory) {
      const face = await Deno.stat(`${ROOT}/core/${e.name}/mod.ts`).catch(() => undefined);
      assertEquals(face?.isFile, true, `core/${e.name}/mod.ts exists`);
    }
  }
  assertEquals(root.length <= 8, true, `core/ root holds ${root.sort().join(", ")}`);
});

Deno.test("the early start (the MCP face, the home) evaluates no npm package: stdio servers start before any SDK or zod", async () => {
  const edges = await localEdges(["core/mcp/mod.ts", "core/home.ts"]);
  assertEquals(externalCode(edges, "core/mcp/mod.ts"), []);
  assertEquals(externalCode(edges, "core/home.ts"), []);
  assertEquals(edges.some((e) => e.external && e.typeOnly), true, "the face's types do come from the SDK");
});

Deno.test("hooks cost nothing unused: their face evaluates no npm package, and reaches loader, matcher and runner only by import()", async () => {
  const edges = await localEdges(["core/hooks/mod.ts"]);
  assertEquals(externalCode(edges, "core/hooks/mod.ts"), []);
  const reached = new Set(["core/hooks/mod.ts"]);
  for (const node of reached) {
    for (const e of edges) if (e.from === node && !e.typeOnly && !e.dynamic && !e.external) reached.add(e.to);
  }
  const lazy = ["core/hooks/fire.ts", "core/hooks/runner.ts", "core/hooks/load.ts", "core/hooks/matcher.ts"];
  assertEquals(lazy.filter((f) => reached.has(f)), []);
  assertEquals(
    lazy.every((f) => edges.some((e) => e.to === f)),
    true,
    "they are in the graph, behind import()",
  );
});

Deno.test("navi acp loads no terminal front: core/acp reaches no core/cli file, markdown or highlighting", async () => {
  const edges = await localEdges(["core/acp/mod.ts"]);
  const reached = new Set(edges.flatMap((e) => [e.from, e.to]));
  assertEquals([...reached].filter((f) => f.startsWith("core/cli/")), []);
  assertEquals([...reached].filter((f) => /npm:\/?(marked|emphasize)@/.test(f)), []);
  assertEquals(reached.has("core/app/startup.ts"), true, "it opens sessions with the one start-up sequence");
});

Deno.test("the graph rules catch what they are meant to catch", () => {
  const bad = [
    { from: "core/agent/agent.ts", to: "core/cli/render.ts" },
    { from: "core/agent/agent.ts", to: "tools/bash.ts" },
    { from: "core/mcp/bridge.ts", to: "plugins/embedded.ts" },
    { from: "tools/grep.ts", to: "core/files.ts" },
    { from: "core/cli/repl.ts", to: "tools/mod.ts" },
    { from: "main.ts", to: "core/cli/mod.ts" },
    { from: "core/agent/agent.ts", to: "core/session/records.ts" },
    { from: "core/home.ts", to: "core/tool/result.ts" },
    { from: "core/mod.ts", to: "core/agent/agent.ts" },
    { from: "core/agent/agent.ts", to: "core/agent/stream.ts" },
    { from: "core/agent/agent.ts", to: "core/toollist/mod.ts" },
    { from: "core/mod.ts", to: "core/agent/mod.ts" },
  ];
  assertEquals(layoutViolations(bad), [
    "core/agent/agent.ts -> core/cli/render.ts (only core/cli/ imports core/cli/)",
    "core/agent/agent.ts -> tools/bash.ts (the engine never imports tools/ or plugins/)",
    "core/mcp/bridge.ts -> plugins/embedded.ts (the engine never imports tools/ or plugins/)",
    "tools/grep.ts -> core/files.ts (tools/ import the engine through core/mod.ts)",
    "core/agent/agent.ts -> core/session/records.ts (another subsystem is reached through core/session/mod.ts)",
    "core/home.ts -> core/tool/result.ts (another subsystem is reached through core/tool/mod.ts)",
    "core/mod.ts -> core/agent/agent.ts (another subsystem is reached through core/agent/mod.ts)",
    "core/mod.ts -> core/agent/agent.ts (core/mod.ts re-exports faces, not files)",
  ]);
  const npm = [
    { from: "a.ts", to: "b.ts" },
    { from: "b.ts", to: "npm:zod", external: true },
    { from: "a.ts", to: "npm:openai", external: true, typeOnly: true },
    { from: "a.ts", to: "c.ts", dynamic: true },
    { from: "c.ts", to: "npm:acorn", external: true },
  ];
  assertEquals(externalCode(npm, "a.ts"), ["npm:zod"]);
  assertEquals(
    cycles([{ from: "a", to: "b" }, { from: "b", to: "c" }, { from: "c", to: "a" }, { from: "c", to: "d" }]),
    [["a", "b", "c", "a"]],
  );
});

/** Local files that loading `root` evaluates (static imports, code only). */
function evaluated(edges: Edge[], root: string): string[] {
  const seen = new Set([root]);
  const queue = [root];
  while (queue.length) {
    const node = queue.shift()!;
    for (const e of edges) {
      if (e.from !== node || e.typeOnly || e.dynamic || e.external || seen.has(e.to)) continue;
      seen.add(e.to);
      queue.push(e.to);
    }
  }
  return [...seen].sort();
}

Deno.test("the early start (core/cli/early.ts, run before the front loads) evaluates no npm package and no MCP connection code; the front's module loads commander, zod and the engine with import()", async () => {
  const edges = await localEdges(["core/cli/early.ts", "core/cli/mod.ts"]);
  assertEquals(externalCode(edges, "core/cli/early.ts"), []);
  const early = evaluated(edges, "core/cli/early.ts");
  assertEquals(early.filter((f) => /core\/mcp\/(manager|connection|client|sdk)\.ts$/.test(f)), []);
  assertEquals(early.includes("core/mcp/prespawn.ts"), true, "it spawns the servers");
  assertEquals(externalCode(edges, "core/cli/mod.ts"), []);
  assertEquals(evaluated(edges, "core/cli/mod.ts").filter((f) => f.startsWith("core/cli/")), [
    "core/cli/mod.ts",
  ]);
  assertEquals(
    edges.some((e) => e.from === "core/cli/mod.ts" && e.to === "core/cli/program.ts" && e.dynamic),
    true,
    "the program is loaded with import()",
  );
});

Deno.test("navi -p evaluates no REPL, markdown, highlighting, ACP, search or OAuth code before its first request", async () => {
  const root = "core/cli/commands/print.ts";
  const edges = await localEdges([root]);
  const files = evaluated(edges, root);
  const unwanted =
    /^core\/(cli\/(repl|repl_\w+|markdown|markdown_loader|highlight|line_editor|picker)\.ts|acp\/|mcp\/oauth_\w+\.ts)/;
  assertEquals(files.filter((f) => unwanted.test(f)), []);
  assertEquals(
    externalCode(edges, root).filter((s) =>
      /npm:(marked|emphasize|minisearch|@agentclientprotocol|openai|@modelcontextprotocol)/.test(s)
    ),
    [],
  );
  assertEquals(files.includes("core/cli/printer.ts"), true, "it prints through the terminal printer");
});
