// Project instructions: which AGENTS.md files apply, in which order, the cap, and that every request carries
// the same bytes.
import { join } from "node:path";
import { findInstructionFiles, instructionsText, loadInstructions } from "../../../core/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  writeConfig,
} from "../../helpers.ts";

async function repo(files: Record<string, string>) {
  const dir = await tempDir();
  await Deno.mkdir(join(dir.path, ".git"));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir.path, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir.path, path), text);
  }
  return dir;
}

Deno.test("AGENTS.md from the git root down to the working directory, the user's own first, CLAUDE.md as a fallback", async () => {
  await using r = await repo({
    "AGENTS.md": "root rules",
    "sub/CLAUDE.md": "sub rules (claude)",
    "sub/deeper/AGENTS.md": "deeper rules",
    "sub/deeper/CLAUDE.md": "ignored: AGENTS.md wins in this directory",
    "other/AGENTS.md": "not on the way",
  });
  await using home = await tempDir();
  await Deno.writeTextFile(join(home.path, "AGENTS.md"), "my own rules");
  const files = findInstructionFiles({ workspace: join(r.path, "sub/deeper"), home: home.path });
  assertEquals(files.map((f) => [f.path, f.text]), [
    [join(home.path, "AGENTS.md"), "my own rules"],
    [join(r.path, "AGENTS.md"), "root rules"],
    [join(r.path, "sub/CLAUDE.md"), "sub rules (claude)"],
    [join(r.path, "sub/deeper/AGENTS.md"), "deeper rules"],
  ]);
  const text = loadInstructions({ workspace: join(r.path, "sub/deeper"), home: home.path }).text;
  assertMatch(text, /^<project-instructions>\n/);
  assert(text.indexOf(`# ${join(r.path, "AGENTS.md")}\n\nroot rules`) < text.indexOf("sub rules (claude)"));
  assertEquals(
    loadInstructions({ workspace: join(r.path, "other"), home: join(r.path, "nohome") }).files.length,
    2,
  );
});

Deno.test("outside a repository only the workspace's own file counts; none at all gives no message", async () => {
  await using ws = await tempDir();
  await using home = await tempDir();
  assertEquals(loadInstructions({ workspace: ws.path, home: home.path }), {
    files: [],
    text: "",
    cutBytes: 0,
  });
  await Deno.writeTextFile(join(ws.path, "AGENTS.md"), "ws rules");
  assertEquals(findInstructionFiles({ workspace: ws.path, home: home.path }).map((f) => f.text), [
    "ws rules",
  ]);
});

Deno.test("the instructions are capped at 32 KiB in all, with a visible marker where cut", () => {
  const files = [
    { path: "/r/AGENTS.md", text: "a".repeat(20_000) },
    { path: "/r/sub/AGENTS.md", text: "b".repeat(20_000) },
  ];
  const out = instructionsText(files);
  assert(out.cutBytes > 7_000 && out.cutBytes < 9_000, String(out.cutBytes));
  assertMatch(
    out.text,
    /\[\.\.\. \d+ more bytes of project instructions cut here \(the 32 KiB cap\), from \/r\/sub\/AGENTS\.md on\]/,
  );
  assert(new TextEncoder().encode(out.text).length < 32 * 1024 + 400);
  assertEquals(instructionsText(files.slice(0, 1)).cutBytes, 0);
});

Deno.test("-p in sub/: both files, root first, the same bytes in every request and after a resume", async () => {
  await using r = await repo({ "AGENTS.md": "Use tabs.", "sub/AGENTS.md": "Tests live in sub/tests." });
  await using home = await tempDir();
  const server = startLlmServer((i) =>
    i % 2 === 0 ? { toolCalls: [{ name: "list_dir", arguments: "{}" }] } : { text: `done ${i}` }
  );
  try {
    await writeConfig(home.path, llmConfig(server.url));
    const cwd = join(r.path, "sub");
    const first = await runNavi(["-p", "go"], { home: home.path, cwd });
    assertEquals(first.code, 0, first.stderr);
    await Deno.writeTextFile(join(r.path, "AGENTS.md"), "Edited mid-session: applies to the next session.");
    const second = await runNavi(["-c", "-p", "again"], { home: home.path, cwd });
    assertEquals(second.code, 0, second.stderr);
    const instructions = server.requests.map((q) => JSON.stringify((q.body.messages as unknown[])[1]));
    assertEquals(new Set(instructions).size, 1, "identical bytes in all four requests");
    const text = JSON.parse(instructions[0]).content as string;
    assert(text.indexOf("Use tabs.") < text.indexOf("Tests live in sub/tests."), "root first");
    assertMatch(text, new RegExp(`# ${join(r.path, "sub", "AGENTS.md")}`));
  } finally {
    await server.close();
  }
});
