// `deno task bundle` end to end: the built navi.js is copied alone into an empty directory and run there as a
// user would (also as a stream-json producer and as an editor's ACP agent), with an empty HOME and DENO_DIR, no deno.json, and npm and remote modules refused (--no-npm
// --no-remote): whatever navi loads must come from the file. The test fixtures (the scripted LLM server, the
// MCP test server, the example plugin) come from this repository.
import { join } from "node:path";
import { NAVI_D_TS, PLUGIN_TEMPLATE } from "../../plugins/embedded.ts";
import { buildBundle } from "../../scripts/bundle.ts";
import { VERSION } from "../../core/version.ts";
import { startLlmServer } from "../support/llm_server.ts";
import { useToolScript } from "../support/llm_cli.ts";
import { agentText, startEditor } from "../support/acp_client.ts";
import { validLines } from "../support/stream_json.ts";
import { assert, assertEquals, assertMatch, ROOT, type RunResult, tempDir, writeConfig } from "../helpers.ts";

/** The flags of the documented run line plus the ones that make any load from outside the file fail. */
const RUN_FLAGS = ["run", "-A", "--unstable-worker-options", "--no-config", "--no-npm", "--no-remote"];

interface Place {
  file: string;
  home: string;
  denoDir: string;
  cwd: string;
}

async function run(
  cmd: string,
  args: string[],
  place: Place,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: place.cwd,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: place.home,
      DENO_DIR: place.denoDir,
      NO_COLOR: "1",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    const out = await child.output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

const SECRET = "sk-bundle-secret-4711";

const navi = (place: Place, args: string[]) =>
  run(Deno.execPath(), [...RUN_FLAGS, place.file, ...args], place);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* filesUnder(path);
    else if (e.isFile) yield path;
  }
}

async function realDenoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

Deno.test("dist/navi.js runs alone from an empty directory: version, plugin and MCP tools through -p", async (t) => {
  await using tmp = await tempDir("navi-bundle-");
  const built = await buildBundle(ROOT, join(tmp.path, "build", "navi.js"));
  const place: Place = {
    file: join(tmp.path, "app", "navi.js"),
    home: join(tmp.path, "home"),
    denoDir: join(tmp.path, "deno_dir"),
    cwd: join(tmp.path, "work"),
  };
  for (const dir of ["app", "home", "deno_dir", "work"]) await Deno.mkdir(join(tmp.path, dir));
  await Deno.copyFile(built.file, place.file);
  const naviHome = join(place.home, ".navi");
  await Deno.mkdir(join(naviHome, "plugins"), { recursive: true });
  await Deno.copyFile(join(ROOT, "plugins/examples/word_count.ts"), join(naviHome, "plugins/word_count.ts"));
  const llm = startLlmServer(useToolScript);
  try {
    await writeConfig(naviHome, {
      providers: { local: { base_url: llm.url, api_key: SECRET } },
      model: "m",
      mcp_servers: {
        sdk: {
          command: Deno.execPath(),
          args: [
            "run",
            "-A",
            "--config",
            join(ROOT, "deno.json"),
            join(ROOT, "tests/support/mcp_test_server.ts"),
          ],
          env: { DENO_DIR: await realDenoDir() },
        },
      },
    });

    await t.step("--version", async () => {
      const r = await navi(place, ["--version"]);
      assertEquals([r.code, r.stdout, r.stderr], [0, `${VERSION}\n`, ""]);
    });

    await t.step("a typed plugin's tool is offered and called through -p", async () => {
      const r = await navi(place, ["-p", 'use word_count {"text":"one two three"}', "--approval", "auto"]);
      assertEquals(r.code, 0, r.stderr);
      assertMatch(r.stdout, /^word_count said: .*"words":3/);
      const offered = (llm.requests[0].body.tools as { function: { name: string } }[]).map((x) =>
        x.function.name
      );
      assert(offered.includes("word_count"), offered.join(" "));
    });

    await t.step("an MCP stdio server's tool is called through -p", async () => {
      const r = await navi(place, ["-p", 'use mcp__sdk__echo {"message":"bundle"}', "--approval", "auto"]);
      assertEquals(r.code, 0, r.stderr);
      assertMatch(r.stdout, /^mcp__sdk__echo said: .*echo: bundle/);
    });

    await t.step("a built-in tool whose library loads on first use (grep, re2js) works", async () => {
      await Deno.writeTextFile(join(place.cwd, "notes.txt"), "alpha\nbeta 42\n");
      const r = await navi(place, ["-p", 'use grep {"pattern":"beta \\\\d+"}', "--approval", "auto"]);
      await Deno.remove(join(place.cwd, "notes.txt"));
      assertEquals(r.code, 0, r.stderr);
      assertMatch(r.stdout, /^grep said: .*notes\.txt:2:beta 42/);
    });

    await t.step(
      "-p --output-format stream-json: every line valid, init with the version, a result",
      async () => {
        const r = await navi(place, ["-p", 'use list_dir {"path":"."}', "--output-format", "stream-json"]);
        assertEquals(r.code, 0, r.stderr);
        const lines = await validLines(r.stdout);
        assertEquals([lines[0].subtype, lines[0].version], ["init", 1]);
        assertMatch(String(lines.at(-1)!.result), /^list_dir said: /);
      },
    );

    await t.step("acp: an editor's session reads a file through fs/read_text_file", async () => {
      await Deno.writeTextFile(join(place.cwd, "notes.txt"), "on disk\n");
      const env = {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: place.home,
        DENO_DIR: place.denoDir,
        NO_COLOR: "1",
      };
      const ed = startEditor({
        home: naviHome,
        cwd: place.cwd,
        env,
        command: [Deno.execPath(), ...RUN_FLAGS, place.file, "acp"],
      });
      try {
        ed.buffers.set(join(place.cwd, "notes.txt"), "from the editor\n");
        const init = await ed.agent.request("initialize", {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        });
        assertEquals(init.agentInfo?.version, VERSION);
        const { sessionId } = await ed.agent.request("session/new", { cwd: place.cwd, mcpServers: [] });
        const text = 'use read_file {"path":"notes.txt"}';
        const res = await ed.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
        assertEquals(res.stopReason, "end_turn");
        assertMatch(agentText(ed), /^read_file said: .*from the editor/);
      } finally {
        assertEquals(await ed.close(), 0, ed.stderr());
        await Deno.remove(join(place.cwd, "notes.txt"));
      }
    });

    await t.step("plugins init writes the template and navi.d.ts embedded in the file", async () => {
      const r = await navi(place, ["plugins", "init", "fresh"]);
      assertEquals(r.code, 0, r.stderr);
      const template = PLUGIN_TEMPLATE.replaceAll("__NAME__", "fresh");
      assertEquals(await Deno.readTextFile(join(naviHome, "plugins/fresh.ts")), template);
      assertEquals(await Deno.readTextFile(join(naviHome, "plugins/navi.d.ts")), NAVI_D_TS);
    });

    await t.step(
      "nothing was fetched or installed; the code cache is in navi's home, without the key",
      async () => {
        const npm = join(place.denoDir, "npm");
        const fetched = await Array.fromAsync(Deno.readDir(npm)).catch(() => []);
        assertEquals(fetched, [], "DENO_DIR/npm stays empty");
        assertEquals(
          await Array.fromAsync(Deno.readDir(place.cwd)),
          [],
          "nothing written into the directory run from",
        );
        const cached = (await Array.fromAsync(Deno.readDir(join(naviHome, "cache", "bundle")))).map((e) =>
          e.name.split("-")[0]
        );
        assertEquals(
          cached.sort(),
          ["acorn", "acp", "commander", "main", "mcp", "openai", "re2js", "zod"],
          "acorn: a plugin was compiled",
        );
        for await (const file of filesUnder(place.home)) {
          if (file.endsWith("config.json")) continue;
          const text = new TextDecoder("latin1").decode(await Deno.readFile(file));
          assert(!text.includes(SECRET), `the API key is in ${file}`);
        }
      },
    );

    await t.step("deno install -g makes it a command", async () => {
      const root = join(tmp.path, "install");
      const installed = await run(
        Deno.execPath(),
        ["install", "-g", "-A", "--unstable-worker-options", "-n", "navi", place.file],
        place,
        { DENO_INSTALL_ROOT: root },
      );
      assertEquals(installed.code, 0, installed.stderr);
      const version = await run(join(root, "bin", "navi"), ["--version"], place);
      assertEquals([version.code, version.stdout], [0, `${VERSION}\n`]);
      const tools = await run(join(root, "bin", "navi"), ["tools", "--json"], place);
      assertEquals(tools.code, 0, tools.stderr);
      assert(tools.stdout.includes('"name": "word_count"'), tools.stdout);
    });
  } finally {
    await llm.close();
  }
});
