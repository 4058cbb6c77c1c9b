// Checkpoints as a user meets them, black-box: navi processes against the scripted model server, in a
// folder that is not a git repository. Turn 1 writes a.txt; turn 2 edits it and runs bash that creates
// b.txt, overwrites c.txt and deletes d.txt; then `navi rewind` puts files and conversation back.
import { join } from "node:path";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { spawnNavi } from "../../support/navi_process.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  llmConfig,
  runNavi,
  tempDir,
  until,
  writeConfig,
} from "../../helpers.ts";

type Msg = { role: string; content?: string };

/** The scripted model: what each prompt does, step by step (a step per tool result since that prompt). */
const PLAYS: Record<string, Step[]> = {
  "turn one": [
    {
      toolCalls: [{
        name: "write_file",
        arguments: JSON.stringify({ path: "a.txt", content: "a after turn 1\n" }),
      }],
    },
    { text: "wrote a.txt" },
  ],
  "turn two": [
    {
      toolCalls: [{
        name: "edit_file",
        arguments: JSON.stringify({ path: "a.txt", old_string: "after turn 1", new_string: "after turn 2" }),
      }],
    },
    {
      toolCalls: [{
        name: "bash",
        arguments: JSON.stringify({ command: "echo made > b.txt && echo overwritten > c.txt && rm d.txt" }),
      }],
    },
    { text: "edited and ran" },
  ],
};

function model(_i: number, body: Record<string, unknown>): Step {
  const messages = body.messages as Msg[];
  let last = messages.length - 1;
  while (last >= 0 && messages[last].role !== "user") last--;
  const prompt = String(messages[last]?.content ?? "");
  const done = messages.slice(last).filter((m) => m.role === "tool").length;
  return PLAYS[prompt]?.[done] ?? { text: `answer to ${prompt}` };
}

const read = (p: string) => Deno.readTextFile(p).catch(() => null);

interface World {
  home: string;
  ws: string;
  id: string;
  server: ReturnType<typeof startLlmServer>;
  navi(args: string[], opts?: { stdin?: string }): ReturnType<typeof runNavi>;
  files(): Promise<Record<string, string | null>>;
}

/** Two turns in a fresh non-git folder, as the issue describes; returns the session and helpers. */
async function twoTurns(home: string, ws: string, server: ReturnType<typeof startLlmServer>): Promise<World> {
  await writeConfig(home, llmConfig(server.url));
  await Deno.writeTextFile(join(ws, "c.txt"), "c original\n");
  await Deno.writeTextFile(join(ws, "d.txt"), "d original\n");
  const navi = (args: string[], opts: { stdin?: string } = {}) => runNavi(args, { home, cwd: ws, ...opts });
  const first = await navi(["-p", "turn one", "--approval", "auto", "--output-format", "json"]);
  assertEquals(first.code, 0, first.stderr);
  const id = JSON.parse(first.stdout).session_id;
  const second = await navi(["--resume", id, "-p", "turn two", "--approval", "auto"]);
  assertEquals(second.code, 0, second.stderr);
  assertEquals(second.stdout, "edited and ran\n");
  const files = async () =>
    Object.fromEntries(
      await Promise.all(["a.txt", "b.txt", "c.txt", "d.txt"].map(async (f) => [f, await read(join(ws, f))])),
    );
  return { home, ws, id, server, navi, files };
}

const AFTER_TURN_2 = {
  "a.txt": "a after turn 2\n",
  "b.txt": "made\n",
  "c.txt": "overwritten\n",
  "d.txt": null,
};
const AFTER_TURN_1 = {
  "a.txt": "a after turn 1\n",
  "b.txt": null,
  "c.txt": "c original\n",
  "d.txt": "d original\n",
};

function userMessages(file: string): string[] {
  const records = Deno.readTextFileSync(file).trim().split("\n").map((l) => JSON.parse(l));
  let messages: Msg[] = [];
  for (const r of records) {
    if (r.type === "message") messages.push(r.message);
    if (r.type === "rewrite") messages = r.messages;
  }
  return messages.filter((m) => m.role === "user").map((m) => String(m.content));
}

Deno.test("rewind --to 1 --code restores all four files, keeps the conversation, and can be undone", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer(model);
  try {
    const w = await twoTurns(home.path, ws.path, server);
    assert(!(await Deno.stat(join(ws.path, ".git")).catch(() => null)), "not a git repository");
    assertEquals(await w.files(), AFTER_TURN_2);

    const list = await w.navi(["rewind", w.id, "--list", "--json"]);
    assertEquals(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout) as { n: number; kind: string; prompt: string; files: string[] }[];
    assertEquals(rows.map((r) => [r.n, r.kind, r.prompt, r.files]), [
      [1, "turn", "turn one", ["a.txt"]],
      [2, "turn", "turn two", ["a.txt", "b.txt", "c.txt", "d.txt"]],
    ]);
    const table = await w.navi(["rewind", w.id, "--list"]);
    assertMatch(
      table.stdout,
      /^#\s+TIME\s+FILES\s+PROMPT\n1\s+\d\d:\d\d:\d\d\s+a\.txt\s+turn one\n2\s+.*a\.txt, b\.txt \+2\s+turn two\n$/,
    );

    const session = join(home.path, "sessions", `${w.id}.jsonl`);
    const rewound = await w.navi(["rewind", w.id, "--to", "1", "--code"]);
    assertEquals(rewound.code, 0, rewound.stderr);
    assertEquals(rewound.stderr, "");
    assertMatch(rewound.stdout, /^restored 4 files to the end of turn 1: a\.txt, b\.txt, c\.txt, d\.txt\n/);
    assertMatch(rewound.stdout, new RegExp(`undo: navi rewind ${w.id} --to 2 `));
    assertEquals(await w.files(), AFTER_TURN_1);
    assertEquals(userMessages(session).filter((m) => m.startsWith("turn")), ["turn one", "turn two"]);

    const undone = await w.navi(["rewind", w.id, "--to", "2", "--code"]);
    assertEquals(undone.code, 0, undone.stderr);
    assertEquals(await w.files(), AFTER_TURN_2, "the rewind was undone");
    const again = await w.navi(["rewind", w.id, "--list", "--json"]);
    assertEquals(
      JSON.parse(again.stdout).map((r: { kind: string; to?: number }) => [r.kind, r.to ?? null]),
      [["turn", null], ["turn", null], ["rewind", 1], ["rewind", 2]],
    );
  } finally {
    await server.close();
  }
});

Deno.test("rewind --to 1 --conversation drops turn 2 from the session and keeps the files", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer(model);
  try {
    const w = await twoTurns(home.path, ws.path, server);
    const session = join(home.path, "sessions", `${w.id}.jsonl`);
    const before = await Deno.readTextFile(session);
    const r = await w.navi(["rewind", w.id, "--to", "1", "--conversation"]);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /the conversation is back at the end of turn 1/);
    assertEquals(await w.files(), AFTER_TURN_2, "the files stay");
    const after = await Deno.readTextFile(session);
    assert(after.startsWith(before), "the session file stays append-only: old messages kept for audit");
    assertMatch(after.slice(before.length), /"type":"rewrite","reason":"rewind"/);

    const next = await w.navi(["--resume", w.id, "-p", "turn three"]);
    assertEquals(next.code, 0, next.stderr);
    const sent = (server.requests.at(-1)!.body.messages as Msg[]).map((m) => m.content);
    assert(sent.includes("turn one") && sent.includes("wrote a.txt"), "turn 1 is still there");
    assert(!sent.includes("turn two") && !sent.includes("edited and ran"), "turn 2 is gone");
    assertEquals(sent.at(-1), "turn three");
  } finally {
    await server.close();
  }
});

Deno.test("a file the user edited after turn 2 is not overwritten without a yes", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer(model);
  try {
    const w = await twoTurns(home.path, ws.path, server);
    await Deno.writeTextFile(join(ws.path, "c.txt"), "the user's own text\n");
    const no = await w.navi(["rewind", w.id, "--to", "1", "--code"], { stdin: "\n" });
    assertEquals(no.code, 0, no.stderr);
    assertMatch(no.stderr, /c\.txt changed since navi left it:\n/);
    assertMatch(no.stderr, /- overwritten\n.*\+ the user's own text\n/s);
    assertMatch(no.stderr, /overwrite c\.txt with its state at the end of turn 1\? \[y\/N\]/);
    assertMatch(
      no.stdout,
      /restored 3 files to the end of turn 1: a\.txt, b\.txt, d\.txt\nkept as they are now: c\.txt\n/,
    );
    assertEquals(await read(join(ws.path, "c.txt")), "the user's own text\n");
    assertEquals(await read(join(ws.path, "a.txt")), "a after turn 1\n");

    const closed = await w.navi(["rewind", w.id, "--to", "0", "--code"]);
    assertEquals(closed.code, 0, closed.stderr);
    assertEquals(
      await read(join(ws.path, "c.txt")),
      "the user's own text\n",
      "no answer (end of input) is a no",
    );

    const yes = await w.navi(["rewind", w.id, "--to", "0", "--code"], { stdin: "y\n" });
    assertEquals(yes.code, 0, yes.stderr);
    assertEquals(await read(join(ws.path, "c.txt")), "c original\n");
    assertEquals(await read(join(ws.path, "a.txt")), null, "before turn 1 there was no a.txt");

    const undo = await w.navi(["rewind", w.id, "--list", "--json"]);
    const last = JSON.parse(undo.stdout).at(-1).n;
    const back = await w.navi(["rewind", w.id, "--to", String(last - 1), "--code", "--yes"]);
    assertEquals(back.code, 0, back.stderr);
    assertEquals(
      await read(join(ws.path, "c.txt")),
      "the user's own text\n",
      "undoing brings the user's text back",
    );
  } finally {
    await server.close();
  }
});

Deno.test("a fork is resumed while the original is resumed too; the original file is untouched", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer(model);
  try {
    const w = await twoTurns(home.path, ws.path, server);
    const original = join(home.path, "sessions", `${w.id}.jsonl`);
    const live = spawnNavi(["--resume", w.id], {
      home: home.path,
      cwd: ws.path,
      stdin: true,
      timeoutMs: 60_000,
    });
    await until(
      () => Deno.stat(`${original}.lock`).then(() => true, () => false),
      30_000,
      "the original is open",
    );
    const before = await Deno.readTextFile(original);
    const fork = await w.navi([
      "--resume",
      w.id,
      "--fork-session",
      "1",
      "-p",
      "in the fork",
      "--output-format",
      "json",
    ]);
    assertEquals(fork.code, 0, fork.stderr);
    const forkId = JSON.parse(fork.stdout).session_id;
    assert(forkId !== w.id);
    assertEquals(await Deno.readTextFile(original), before, "forking wrote nothing to the original");
    const forkSent = (server.requests.at(-1)!.body.messages as Msg[]).map((m) => m.content);
    assert(forkSent.includes("turn one") && !forkSent.includes("turn two"), "the fork has turn 1 only");

    await live.write("the original goes on\n");
    await live.end();
    const ended = await live.done;
    assertEquals(ended.code, 0, ended.stderr);
    assertEquals(userMessages(original).filter((m) => !m.startsWith("<")).slice(-3), [
      "turn one",
      "turn two",
      "the original goes on",
    ]);
    const forkFile = join(home.path, "sessions", `${forkId}.jsonl`);
    const meta = JSON.parse(Deno.readTextFileSync(forkFile).split("\n")[0]);
    assertEquals(meta.forked_from, { id: w.id, turn: 1 });
    const forkTurns = await w.navi(["rewind", forkId, "--list", "--json"]);
    assertEquals(
      JSON.parse(forkTurns.stdout).map((r: { n: number; files: string[] }) => [r.n, r.files]),
      [[1, ["a.txt"]], [2, []]],
      "the fork has turn 1's checkpoints, then its own turn",
    );
    for (const id of [w.id, forkId]) {
      const r = await w.navi(["--resume", id, "-p", `again ${id}`]);
      assertEquals(r.code, 0, r.stderr);
    }
    assertEquals(userMessages(forkFile).filter((m) => !m.startsWith("<")).slice(-3), [
      "turn one",
      "in the fork",
      `again ${forkId}`,
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("a deleted or corrupted checkpoint store gives one line, never a crash", async () => {
  await using home = await tempDir();
  await using ws = await tempDir();
  const server = startLlmServer(model);
  try {
    const w = await twoTurns(home.path, ws.path, server);
    const store = join(home.path, "sessions", w.id, "checkpoints");
    const packs = [...Deno.readDirSync(join(store, "packs"))].filter((e) => e.name.endsWith(".pack"))
      .map((e) => join(store, "packs", e.name));
    const victim = packs.find((f) => Deno.readTextFileSync(f).includes("c original\n"))!;
    await Deno.writeTextFile(victim, Deno.readTextFileSync(victim).replace("c original\n", "c tampered\n"));
    const damaged = await w.navi(["rewind", w.id, "--to", "1", "--code"]);
    assertEquals(damaged.code, 1);
    assertEquals(damaged.stdout, "");
    assertMatch(
      damaged.stderr,
      /^navi: cannot restore c\.txt \(content [0-9a-f]{12} in .* is damaged \(it no longer matches its hash\)\); nothing was changed\n$/,
    );
    assertEquals(await w.files(), AFTER_TURN_2, "nothing was changed");

    await Deno.writeTextFile(join(store, "log.jsonl"), "{not json\n", { append: true });
    const list = await w.navi(["rewind", w.id, "--list"]);
    assertEquals(list.code, 0, list.stderr);
    assertMatch(list.stderr, /^navi: warning: .*log\.jsonl: line \d+ is damaged and skipped\n$/);

    await Deno.remove(store, { recursive: true });
    const gone = await w.navi(["rewind", w.id, "--to", "1", "--code"]);
    assertEquals(gone.code, 1);
    assertEquals(gone.stdout, "");
    assertEquals(
      gone.stderr,
      `navi: the checkpoint store of session ${w.id} is missing (${store}); its files cannot be rewound\n`,
    );
    const listed = await w.navi(["rewind", w.id, "--list"]);
    assertEquals(listed.code, 0);
    assertEquals(listed.stderr.split("\n").length, 2, listed.stderr);
    assertMatch(listed.stdout, /\n1\s+\S+\s+\?\s+turn one\n/);
    const conversation = await w.navi(["rewind", w.id, "--to", "1", "--conversation"]);
    assertEquals(conversation.code, 0, conversation.stderr);

    const next = await w.navi(["--resume", w.id, "-p", "turn two", "--approval", "auto"]);
    assertEquals(next.code, 0, next.stderr);
    assertEquals(await read(join(ws.path, "b.txt")), "made\n", "navi goes on recording in a new store");
  } finally {
    await server.close();
  }
});
