// `deno task check` step: `deno doc --lint` of every face of core/, each in its own run. A face is linted
// with the faces whose types its API uses (those document their own types: no face relays another's), so
// each run reports the problems of that face alone. core/mod.ts and core/plugins/api.ts are linted alone.
import { relative } from "node:path";

const root = new URL("../", import.meta.url).pathname;

/** The faces of core/ (each subsystem folder's mod.ts), sorted. */
export function faces(): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`${root}core`)) {
    if (e.isDirectory && e.name !== "cli") out.push(`core/${e.name}/mod.ts`);
  }
  return out.sort();
}

/** The other faces a face's folder imports, directly or through those faces (types included), from `deno info`. */
export function companions(face: string): string[] {
  const r = new Deno.Command(Deno.execPath(), { args: ["info", "--json", face], cwd: root, stdout: "piped" })
    .outputSync();
  const graph = JSON.parse(new TextDecoder().decode(r.stdout)) as {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
    }[];
  };
  const found = new Set<string>();
  for (const m of graph.modules) {
    if (!m.specifier.startsWith("file://")) continue;
    const from = relative(root, new URL(m.specifier).pathname);
    if (!from.startsWith("core/")) continue;
    for (const d of m.dependencies ?? []) {
      for (const s of [d.code?.specifier, d.type?.specifier]) {
        if (!s?.startsWith("file://")) continue;
        const to = relative(root, new URL(s).pathname);
        if (/^core\/[^/]+\/mod\.ts$/.test(to) && to !== face) found.add(to);
      }
    }
  }
  return [...found].sort();
}

if (import.meta.main) {
  const runs = [
    ...faces().map((f) => [f, ...companions(f)]),
    ["core/mod.ts"],
    ["core/plugins/api.ts"],
  ];
  let failed = 0;
  for (const run of runs) {
    const r = new Deno.Command(Deno.execPath(), {
      args: ["doc", "--lint", ...run],
      cwd: root,
      stderr: "piped",
      stdout: "piped",
    })
      .outputSync();
    if (!r.success) {
      failed++;
      console.error(`deno doc --lint ${run.join(" ")}`);
      console.error(new TextDecoder().decode(r.stderr).trim());
    }
  }
  console.log(`deno doc --lint: ${runs.length - failed} of ${runs.length} faces clean`);
  if (failed) Deno.exit(1);
}
