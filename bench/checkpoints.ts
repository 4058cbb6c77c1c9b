// What checkpoints cost in a 10,000-file workspace (100 folders of 100 files, 1-3 KB each): the first look
// (once per session, in the background), each bash and edit_file call with and without the capture
// (interleaved, medians of BENCH_RUNS, default 30, each also as a ratio to the call alone), the store after a
// 100-edit session, and the restore of those 100 edits. `deno run -A bench/checkpoints.ts` (part of
// `deno task bench`). BENCH_FILES changes the workspace size.
import { join } from "node:path";
import {
  applyCode,
  Checkpoints,
  CheckpointStore,
  planCode,
  readChanges,
  Sandbox,
  storeDir,
  type ToolContext,
} from "../core/mod.ts";
import bash from "../tools/bash.ts";
import editFile from "../tools/edit_file.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 30);
const FILES = Number(Deno.env.get("BENCH_FILES") ?? 10_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const home = await Deno.makeTempDir({ prefix: "navi-bench-home-" });
const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "navi-bench-ws-" }));

function makeWorkspace(): number {
  let bytes = 0;
  const dirs = Math.ceil(FILES / 100);
  for (let d = 0; d < dirs; d++) {
    const dir = join(ws, "src", `m${Math.floor(d / 10)}`, `d${d}`);
    Deno.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100 && d * 100 + f < FILES; f++) {
      const text = `// header ${d}/${f}\n` +
        `// file ${d}/${f}\nexport const value${f} = ${d * 100 + f};\n`.repeat(20 + (f % 50));
      Deno.writeTextFileSync(join(dir, `f${f}.ts`), text);
      bytes += text.length;
    }
  }
  return bytes;
}

function storeBytes(dir: string): { logical: number; files: number } {
  let logical = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      if (e.isDirectory) walk(join(d, e.name));
      else if (e.isFile) {
        logical += Deno.statSync(join(d, e.name)).size;
        files++;
      }
    }
  };
  walk(dir);
  return { logical, files };
}

const scratch = await Deno.realPath(await Deno.makeTempDir({ prefix: "navi-bench-scratch-" }));
const ctx = (sandbox?: Sandbox, root = ws): ToolContext => ({
  workspace: root,
  signal: new AbortController().signal,
  confirm: () => Promise.resolve(false),
  sandbox,
});

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * Run `call` alone and inside the recorder's capture, interleaved; medians of both. The call alone runs in a
 * scratch copy of the workspace's first folder, so that its writes are not events of the watched workspace.
 */
async function compare(
  rec: Checkpoints,
  opts: {
    tool: string;
    effect: "any" | { files: string[] };
    call: (i: number, root: string) => Promise<unknown>;
  },
) {
  const alone: number[] = [];
  const captured: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const a = await timed(() => opts.call(2 * i, scratch));
    const c = await timed(async () => {
      const capture = await rec.beforeCall({ tool: opts.tool, effect: opts.effect });
      await opts.call(2 * i + 1, ws);
      await capture?.done();
    });
    if (i >= 3) {
      alone.push(a);
      captured.push(c);
    }
  }
  return { alone: median(alone), captured: median(captured) };
}

const row = (name: string, r: { alone: number; captured: number }) =>
  `| ${name} | ${r.alone.toFixed(1)} ms | ${r.captured.toFixed(1)} ms | **${
    (r.captured - r.alone).toFixed(1)
  } ms** | ${(r.captured / r.alone).toFixed(2)}x |`;

try {
  const workspaceBytes = makeWorkspace();
  const sandbox = new Sandbox({ home, workspace: ws, env: Deno.env });
  const status = await sandbox.status();
  const box = status.state === "enforced" ? sandbox : undefined;
  const scratchBox = box && new Sandbox({ home, workspace: scratch, env: Deno.env });
  for (const d of ["src/m0/d0", "src/m0/d1"]) {
    Deno.mkdirSync(join(scratch, d), { recursive: true });
    for (const e of Deno.readDirSync(join(ws, d))) {
      Deno.copyFileSync(join(ws, d, e.name), join(scratch, d, e.name));
    }
  }
  const runBash = (command: string, root = ws) => async () => {
    const r = await bash.run({ command }, ctx(root === ws ? box : scratchBox, root));
    if (!r.ok) throw new Error(`${command}: ${JSON.stringify(r)}`);
  };

  const first = new Checkpoints({ home, sessionId: "20260101-000000-aaaaaa", workspace: ws });
  const lookMs = await timed(async () => {
    first.beginTurn(1);
    await (await first.beforeCall({ tool: "bash", effect: "any" }))?.done();
  });
  await first.close();
  const rec = new Checkpoints({ home, sessionId: "20260101-000001-bbbbbb", workspace: ws });
  const relookMs = await timed(async () => {
    rec.beginTurn(1);
    await (await rec.beforeCall({ tool: "bash", effect: "any" }))?.done();
  });

  const readOnly = await compare(rec, {
    tool: "bash",
    effect: "any",
    call: (_i, root) => runBash("ls src > /dev/null", root)(),
  });
  const writes = await compare(rec, {
    tool: "bash",
    effect: "any",
    call: (i, root) =>
      runBash(`echo ${i} > src/m0/d0/f1.ts && echo new > new${i}.txt && rm -f new${i - 2}.txt`, root)(),
  });
  const edit = await compare(rec, {
    tool: "edit_file",
    effect: { files: ["src/m0/d1/f2.ts"] },
    call: async (i, root) => {
      const r = await editFile.run({
        path: "src/m0/d1/f2.ts",
        old_string: i < 2 ? "value2 = 102;" : `value2 = e${i - 2};`,
        new_string: `value2 = e${i};`,
        replace_all: true,
      }, ctx(undefined, root));
      if (!r.ok) throw new Error(JSON.stringify(r));
    },
  });
  const walker = new Checkpoints({ home, sessionId: "20260101-000002-cccccc", workspace: ws, watch: false });
  walker.beginTurn(1);
  await (await walker.beforeCall({ tool: "bash", effect: "any" }))?.done();
  const walked = await compare(walker, {
    tool: "bash",
    effect: "any",
    call: (_i, root) => runBash("ls src > /dev/null", root)(),
  });
  await walker.close();
  const stats = rec.stats();
  await rec.close();

  const session = new Checkpoints({ home, sessionId: "20260101-000003-dddddd", workspace: ws });
  session.beginTurn(1);
  await (await session.beforeCall({ tool: "bash", effect: "any" }))?.done();
  const store = new CheckpointStore(storeDir(home, "20260101-000003-dddddd"));
  const afterLook = storeBytes(store.dir);
  for (let i = 0; i < 100; i++) {
    session.beginTurn(i + 2);
    const [d, f] = [(i * 7) % 100, (i * 13) % 100];
    const path = `src/m${Math.floor(d / 10)}/d${d}/f${f}.ts`;
    const capture = await session.beforeCall({ tool: "edit_file", effect: { files: [path] } });
    const r = await editFile.run({
      path,
      old_string: `// header ${d}/${f}\n`,
      new_string: `// header ${d}/${f}, edit ${i}\n`,
    }, ctx());
    if (!r.ok) throw new Error(JSON.stringify(r));
    await capture?.done();
  }
  await session.close();
  const after100 = storeBytes(store.dir);
  const { changes } = readChanges(store, "20260101-000003-dddddd");
  let restored = 0;
  const restoreMs = await timed(() => {
    const plan = planCode(store, { root: ws, changes, to: 1 });
    restored = applyCode(store, plan, { root: ws, n: 102 }).length;
    return Promise.resolve();
  });

  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `\n${FILES} files (${mb(workspaceBytes)}), bash ${
      box ? status.summary : "unconfined"
    }, ${RUNS} runs each, ` +
      `interleaved, ${navigator.hardwareConcurrency} cores, load average ${
        Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
      }\n`,
  );
  console.log("| call | alone | with checkpoints | overhead | ratio |\n| --- | ---: | ---: | ---: | ---: |");
  console.log(row("bash `ls src` (reads only)", readOnly));
  console.log(row("bash: overwrite 1 file, create 1, delete 1", writes));
  console.log(row("edit_file (declared write)", edit));
  console.log(row("bash `ls src`, file watch off (walks)", walked));
  console.log(
    `\nfirst look of the workspace (once per session, in the background): ${lookMs.toFixed(0)} ms new, ` +
      `${relookMs.toFixed(0)} ms with the last session's store to link from; the file watch settled ` +
      `${stats.settled} windows alone and walked ${stats.walks} times`,
  );
  console.log(
    `store after the first look: ${mb(afterLook.logical)} in ${afterLook.files} files (hard links to the ` +
      `previous session's contents count in full here); after 100 edits: ${mb(after100.logical)} ` +
      `(+${((after100.logical - afterLook.logical) / 1024).toFixed(0)} KB)`,
  );
  console.log(`restore of the 100 edits (${restored} files): ${restoreMs.toFixed(0)} ms`);
} finally {
  await Deno.remove(home, { recursive: true }).catch(() => {});
  await Deno.remove(ws, { recursive: true }).catch(() => {});
  await Deno.remove(scratch, { recursive: true }).catch(() => {});
}
