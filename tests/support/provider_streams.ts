// The recorded provider streams of ../shared/provider_streams/ (read where they are, never copied), grouped into
// replay cases, and a server that answers each request with the next recording's bytes as the provider sent them.
import { dirname, isAbsolute, join, resolve } from "node:path";
import { ROOT } from "../helpers.ts";

/** What meta.json says of one recording. */
export interface RecordingMeta {
  content_type: string;
  repo: string;
  url: string;
  tool_calls_recorded: { id: string; name: string }[];
  edited: boolean;
}

/** One replay: the recordings that answer its requests in order (a tool-call stream, then the answer). */
export interface ReplayCase {
  name: string;
  files: string[];
  /** Why an answer stream is borrowed from another recording, when it is. */
  borrowed?: string;
}

/**
 * Answers for tool-call recordings that have no `<x>_answer` recording: SOURCES.md names the two it borrows;
 * the three vercel/ai fixtures (DeepSeek, Mistral, Alibaba) were recorded alone, so the provider's own text
 * recording answers the second request.
 */
const BORROWED: Record<string, string> = {
  gemini_tool: "openrouter-gemini_tool_answer",
  "anthropic-gw_tool": "openrouter-claude_tool_answer",
  deepseek_tool: "deepseek_text",
  mistral_tool: "mistral_text",
  alibaba_tool: "alibaba_text",
};

function candidates(): string[] {
  const found = [join(ROOT, "..", "shared", "provider_streams")];
  try {
    // A git worktree's .git file names the main repository; its sibling `shared` folder holds the recordings.
    const git = Deno.readTextFileSync(join(ROOT, ".git")).match(/^gitdir: (.+)$/m)?.[1]?.trim();
    if (git) {
      const gitDir = isAbsolute(git) ? git : resolve(ROOT, git);
      const common = gitDir.includes("/worktrees/") ? gitDir.slice(0, gitDir.indexOf("/worktrees/")) : gitDir;
      found.push(join(dirname(common), "..", "shared", "provider_streams"));
    }
  } catch { /* .git is a directory: the repository root is the main checkout */ }
  return found;
}

/**
 * The folder of the recordings: `../shared/provider_streams` next to the repository root (or next to the main
 * checkout, for a git worktree), or `$NAVI_PROVIDER_STREAMS`. Throws one clear line when it is missing.
 */
export function streamsDir(): string {
  const env = Deno.env.get("NAVI_PROVIDER_STREAMS");
  const tried = env ? [env] : candidates();
  for (const dir of tried) {
    try {
      if (Deno.statSync(join(dir, "meta.json")).isFile) return dir;
    } catch { /* try the next */ }
  }
  throw new Error(
    `the recorded provider streams are missing: looked for meta.json in ${tried.join(", ")} ` +
      "(set NAVI_PROVIDER_STREAMS to the folder)",
  );
}

/** meta.json of the recordings. */
export function recordingMeta(dir: string): Record<string, RecordingMeta> {
  return JSON.parse(Deno.readTextFileSync(join(dir, "meta.json")));
}

/** Every recording's name (file name without `.sse`), sorted. */
export function recordingNames(dir: string): string[] {
  return [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".sse")).map((e) => e.name.slice(0, -4))
    .sort();
}

/** The replay cases: each `_text` recording alone, each `_tool`/`_parallel` recording with its answer. */
export function replayCases(dir: string): ReplayCase[] {
  const names = recordingNames(dir);
  const cases: ReplayCase[] = [];
  for (const name of names) {
    if (name.endsWith("_text")) cases.push({ name, files: [name] });
    else if (/_(tool|parallel)$/.test(name)) {
      const own = `${name}_answer`;
      const answer = names.includes(own) ? own : BORROWED[name];
      if (!answer || !names.includes(answer)) {
        throw new Error(`recording ${name} has no answer recording (${own}.sse) and none is borrowed for it`);
      }
      cases.push({ name, files: [name, answer], ...(answer !== own ? { borrowed: answer } : {}) });
    } else if (!name.endsWith("_answer")) throw new Error(`recording ${name}.sse fits no replay case`);
  }
  return cases;
}

/** The JSON payloads of a recording's `data:` lines, `[DONE]` left out (the test's own reading of the file). */
export function recordedEvents(dir: string, name: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(join(dir, `${name}.sse`)).split("\n")
    .filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "[DONE]")
    .map((l) => JSON.parse(l.slice(5)));
}

/** A request the replay server answered. */
export interface ReplayRequest {
  body: Record<string, unknown>;
  raw: string;
}

/**
 * A server on 127.0.0.1 that answers the n-th chat request with the n-th of `files`: its bytes exactly, with the
 * Content-Type the provider sent, in 61-byte pieces (so events and lines are split across reads); `GET /models`
 * lists model `m`.
 */
export function startReplayServer(dir: string, files: string[], meta: Record<string, RecordingMeta>) {
  const requests: ReplayRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET" && new URL(req.url).pathname.endsWith("/models")) {
      return Response.json({
        object: "list",
        data: [{ id: "m", object: "model", created: 0, owned_by: "replay" }],
      });
    }
    const raw = await req.text();
    requests.push({ body: JSON.parse(raw), raw });
    const name = files[requests.length - 1];
    if (!name) return Response.json({ error: { message: "replay exhausted" } }, { status: 500 });
    const bytes = Deno.readFileSync(join(dir, `${name}.sse`));
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 61));
        at += 61;
      },
    }, { highWaterMark: 0 });
    return new Response(body, { headers: { "content-type": meta[name].content_type } });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`,
    requests,
    close: () => server.shutdown(),
  };
}
