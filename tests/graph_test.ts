// The module graph keeps the layout honest: the terminal front (core/cli/) is imported by nobody outside it,
// the engine (the rest of core/) never imports tools/ or plugins/, tools reach the engine through
// core/mod.ts, and no import cycle exists.
import { relative } from "node:path";
import { assertEquals, ROOT } from "./helpers.ts";

interface Edge {
  from: string;
  to: string;
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
        dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
      }[];
    };
    for (const m of graph.modules) {
      if (!m.specifier.startsWith("file://")) continue;
      const from = relative(ROOT, new URL(m.specifier).pathname);
      for (const dep of m.dependencies ?? []) {
        for (const target of [dep.code?.specifier, dep.type?.specifier]) {
          if (!target?.startsWith("file://")) continue;
          const to = relative(ROOT, new URL(target).pathname);
          edges.set(`${from}>${to}`, { from, to });
        }
      }
    }
  }
  return [...edges.values()];
}

const isCli = (p: string) => p.startsWith("core/cli/");
const isEngine = (p: string) => p.startsWith("core/") && !isCli(p);

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
  }
  return out;
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

const ROOTS = ["main.ts", "core/cli/mod.ts", "tools/mod.ts", "plugins/embedded.ts"];

Deno.test("the module graph keeps the layout: core/cli only from inside, engine without tools/plugins, no cycles", async () => {
  const edges = await localEdges(ROOTS);
  const files = new Set(edges.flatMap((e) => [e.from, e.to]));
  for (
    const f of ["core/cli/mod.ts", "core/mod.ts", "core/mcp/mod.ts", "tools/bash.ts", "core/agent/agent.ts"]
  ) {
    assertEquals(files.has(f), true, `${f} is in the graph`);
  }
  assertEquals(layoutViolations(edges), []);
  assertEquals(cycles(edges), []);
});

Deno.test("the graph rules catch what they are meant to catch", () => {
  const bad = [
    { from: "core/agent/agent.ts", to: "core/cli/render.ts" },
    { from: "core/agent/agent.ts", to: "tools/bash.ts" },
    { from: "core/mcp/bridge.ts", to: "plugins/embedded.ts" },
    { from: "tools/grep.ts", to: "core/files.ts" },
    { from: "core/cli/repl.ts", to: "tools/mod.ts" },
    { from: "main.ts", to: "core/cli/mod.ts" },
  ];
  assertEquals(layoutViolations(bad).length, 4);
  assertEquals(
    cycles([{ from: "a", to: "b" }, { from: "b", to: "c" }, { from: "c", to: "a" }, { from: "c", to: "d" }]),
    [["a", "b", "c", "a"]],
  );
});
