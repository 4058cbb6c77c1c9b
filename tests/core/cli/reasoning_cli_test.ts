// Reasoning at the terminal: streamed dimmed or collapsed to one line (/reasoning), the last one in full
// (/reasoning show), the effort (--effort, /effort), reasoning tokens apart in /usage and the JSON output.
import { join } from "node:path";
import { terminalEvents } from "../../../core/cli/printer.ts";
import { makeStyle } from "../../../core/cli/style.ts";
import type { Sink } from "../../../core/mod.ts";
import { haveTmux } from "../../support/pty.ts";
import { naviInPty } from "../../support/navi_pty.ts";
import { recordingMeta, startReplayServer, streamsDir } from "../../support/provider_streams.ts";
import { assert, assertEquals, assertMatch, runNavi, tempDir, writeConfig } from "../../helpers.ts";

const DIR = streamsDir();
const META = recordingMeta(DIR);
const raw = (name: string) => Deno.readTextFileSync(join(DIR, `${name}.sse`));

function capture(): Sink & { text: string } {
  const sink = { text: "", write: (t: string) => void (sink.text += t) };
  return sink;
}

Deno.test("the printer streams reasoning dimmed before the answer, or collapses it to one summary line", () => {
  const out = capture();
  const events = terminalEvents({
    mode: "repl",
    out,
    err: capture(),
    style: makeStyle(true, { get: () => undefined }),
  });
  events.requestStart!(1);
  events.reasoning!("Let me ");
  events.reasoning!("think.");
  events.text!("The answer.");
  events.responseEnd!({ text: "The answer.", toolCalls: 0 });
  assertEquals(out.text, "\x1b[2mLet me \x1b[22m\x1b[2mthink.\x1b[22m\n\nThe answer.\n");
  events.reasoningDisplay.shown = false;
  out.text = "";
  events.requestStart!(2);
  events.reasoning!("Hidden thoughts");
  events.text!("Short.");
  events.responseEnd!({ text: "Short.", toolCalls: 0 });
  assertMatch(
    out.text,
    // deno-lint-ignore no-control-regex
    /^\x1b\[2m✻ reasoned \d+\.\d s \(15 chars; \/reasoning show prints it\)\x1b\[22m\nShort\.\n$/,
  );
  const print = capture();
  const quiet = terminalEvents({ mode: "print", out: print, err: print });
  quiet.reasoning!("not for -p");
  assertEquals(print.text, "", "-p prints no reasoning");
});

async function replayHome(files: string[], config: Record<string, unknown> = {}) {
  const server = startReplayServer(DIR, files, META);
  const home = await tempDir();
  await writeConfig(home.path, {
    providers: { zai: { base_url: server.url, api_key: "k", reasoning_effort: "low" } },
    model: "m",
    approval: "auto",
    ...config,
  });
  await Deno.writeTextFile(join(home.path, "weather.txt"), "40 C");
  return {
    server,
    home: home.path,
    async [Symbol.asyncDispose]() {
      await server.close();
      await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test("the REPL: /effort switches the effort, /reasoning show and off, /usage counts reasoning apart", async () => {
  await using t = await replayHome(["zai_tool", "zai_tool_answer", "zai_text"]);
  const stdin =
    "/effort\n/effort high\nweather in Florence?\n/reasoning show\n/reasoning off\nhi\n/effort default\n" +
    "/effort\n/usage\n/exit\n";
  const r = await runNavi([], { home: t.home, stdin });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /reasoning effort: low\n/);
  assertMatch(r.stdout, /reasoning effort: high \(from the next request\)\n/);
  assertEquals(t.server.requests.map((q) => q.body.reasoning_effort), ["high", "high", "high"]);
  assertMatch(
    r.stdout,
    /\nThe user is asking for the weather in Florence, Italy\.[^]*exact value\.\n\nI'll get the current weather[^]*\n● read_file/,
    "the reasoning, a blank line, the text, the call",
  );
  assertMatch(r.stdout, /reasoning: off \(one summary line per answer\)\n/);
  assertMatch(r.stdout, /✻ reasoned \d+\.\d s \(\d+ chars; \/reasoning show prints it\)\n/);
  const shown = r.stdout.split("reasoning: off")[0];
  assertEquals(
    shown.split('The weather function returned "40 C"').length - 1,
    2,
    "streamed, then /reasoning show",
  );
  assert(!shown.includes("✻ reasoned"), "no summary line while reasoning is shown");
  assertMatch(
    r.stdout,
    /reasoning effort: low\n[^]*MODEL\s+PROMPT\s+CACHED\s+OUTPUT\s+REASONING\s+COST\nm\s+460\s+229\s+983\s+863\s+-/,
  );
});

Deno.test("-p --effort sends the effort; the JSON output counts reasoning tokens apart", async () => {
  await using t = await replayHome(["zai_tool", "zai_tool_answer"]);
  const r = await runNavi(["-p", "weather?", "--effort", "max", "--output-format", "json"], { home: t.home });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(t.server.requests.map((q) => q.body.reasoning_effort), ["max", "max"]);
  const out = JSON.parse(r.stdout);
  assertEquals([out.usage.reasoning_tokens, out.session_usage.reasoning_tokens], [155, 155]);
  assertEquals(out.usage.completion_tokens, 93 + 156);
  const bad = await runNavi(["-p", "x", "--effort", "huge"], { home: t.home });
  assertEquals(bad.code, 1);
  assertMatch(
    bad.stderr,
    /--effort <level>' argument 'huge' is invalid\. Allowed choices are none, minimal, low/,
  );
});

Deno.test({
  name: "in a terminal the reasoning streams in before the answer; /reasoning off leaves one line",
  ignore: !haveTmux(),
  fn: async () => {
    await using t = await naviInPty([{ raw: raw("zai_text") }, { raw: raw("zai_text") }]);
    await t.pty.type("hello\r");
    await t.pty.waitFor(/Analyze the Request:[^]*Olá![^]*\d+ out \(708 reasoning\)/, 30_000);
    await t.pty.type("/reasoning off\r");
    await t.pty.waitFor("reasoning: off");
    await t.pty.type("again\r");
    const screen = await t.pty.waitFor(
      /✻ reasoned \d+\.\d s \(\d+ chars; \/reasoning show prints it\)\n+.*Olá!/,
      30_000,
    );
    assertEquals(screen.split("Analyze the Request:").length - 1, 1, "the second reasoning is collapsed");
  },
});
