// ACP prompt content into a navi user message, and a navi session back into ACP updates (session/load).
import type * as acp from "@agentclientprotocol/sdk";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { UserContent } from "../agent/mod.ts";
import { isInstructionsMessage } from "../context/mod.ts";
import type { MentionProvider } from "../mentions/mod.ts";
import type { Message } from "../provider/mod.ts";
import { argsOf, textContent, toolKind, toolLocations, toolTitle } from "./tool_view.ts";

/** A prompt made ready for the agent: its text (for commands and mentions) and what to send. */
export interface PromptInput {
  /** The text blocks joined, with file links as `@path` mentions (the one mention pipeline attaches them). */
  text: string;
  /** Attachments from the client itself (embedded resources, files the mention syntax cannot name). */
  attached: string[];
  /** Images, as Chat Completions parts. */
  images: Record<string, unknown>[];
  /** Problems, one line each (a block navi cannot use). */
  problems: string[];
}

/** A path as the user sees it: relative inside the workspace. */
function shownPath(path: string, workspace: string): string {
  const rel = relative(workspace, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

function filePath(uri: string): string | undefined {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/** The file block navi's mentions append (`<file path="...">`), for text the client sent along. */
function fileBlock(path: string, text: string): string {
  return `<file path="${path}">\n${text}${text.endsWith("\n") ? "" : "\n"}</file>`;
}

/** One resource link: a file of the workspace becomes a mention; anything else is named in the text. */
async function link(
  block: { uri: string; name: string },
  ctx: { workspace: string; mentions: readonly MentionProvider[]; input: PromptInput },
): Promise<string> {
  const path = filePath(block.uri);
  if (!path) return block.uri;
  const shown = shownPath(path, ctx.workspace);
  if (!/\s/.test(shown) && !isAbsolute(shown)) return `@${shown}`;
  const provider = ctx.mentions.find((p) => p.accepts(shown));
  try {
    if (provider) ctx.input.attached.push((await provider.expand(shown)).text);
  } catch (err) {
    ctx.input.problems.push((err as Error).message);
  }
  return `\`${shown}\``;
}

/**
 * Read the blocks of a `session/prompt`: text as it is, file links as `@path` mentions, embedded resources
 * (the editor's own copy of a file) and images attached.
 */
export async function readPrompt(
  blocks: acp.ContentBlock[],
  ctx: { workspace: string; mentions: readonly MentionProvider[] },
): Promise<PromptInput> {
  const input: PromptInput = { text: "", attached: [], images: [], problems: [] };
  let text = "";
  for (const b of blocks) {
    if (b.type === "text") text += b.text;
    else if (b.type === "resource_link") text += await link(b, { ...ctx, input });
    else if (b.type === "image") {
      input.images.push({ type: "image_url", image_url: { url: `data:${b.mimeType};base64,${b.data}` } });
    } else if (b.type === "resource") {
      const r = b.resource;
      const path = filePath(r.uri);
      const shown = path ? shownPath(path, ctx.workspace) : r.uri;
      if ("text" in r) {
        input.attached.push(fileBlock(shown, r.text));
        text += `\`${shown}\``;
      } else if (r.mimeType?.startsWith("image/")) {
        input.images.push({ type: "image_url", image_url: { url: `data:${r.mimeType};base64,${r.blob}` } });
      } else input.problems.push(`${shown}: a binary resource; not attached`);
    } else input.problems.push(`${b.type} content is not supported; left out`);
  }
  input.text = text;
  return input;
}

/** The user message: the (mention-expanded) text with the client's attachments, and the images. */
export function userContent(text: string, input: PromptInput): UserContent {
  const full = input.attached.length ? `${text}\n\n${input.attached.join("\n\n")}` : text;
  return input.images.length ? [{ type: "text", text: full }, ...input.images] : full;
}

/** Whether a user message is the user's own (not instructions, reminders, summaries or tool images). */
function spoken(m: Message): boolean {
  if (typeof m.content === "string") {
    return !isInstructionsMessage(m) && !/^<(system-reminder|conversation-summary)>/.test(m.content);
  }
  const first = (m.content as { type?: string; text?: string }[] | undefined)?.[0];
  return !(first?.type === "text" && first.text?.startsWith("Image returned by "));
}

function userUpdates(m: Message): acp.SessionUpdate[] {
  if (typeof m.content === "string") {
    return [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: m.content } }];
  }
  const out: acp.SessionUpdate[] = [];
  for (const p of (m.content ?? []) as { type: string; text?: string; image_url?: { url: string } }[]) {
    if (p.type === "text" && p.text) {
      out.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: p.text } });
    }
    const data = p.type === "image_url" ? /^data:([^;]+);base64,(.*)$/s.exec(p.image_url?.url ?? "") : null;
    if (data) {
      out.push({
        sessionUpdate: "user_message_chunk",
        content: { type: "image", mimeType: data[1], data: data[2] },
      });
    }
  }
  return out;
}

/**
 * A saved conversation as the updates an editor shows (session/load): the user's messages, the answers, and
 * each tool call with its outcome. The system prompt, project instructions and navi's reminders are left out.
 */
export function replayUpdates(messages: readonly Message[], workspace: string): acp.SessionUpdate[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool") results.set(String(m.tool_call_id), String(m.content));
  const out: acp.SessionUpdate[] = [];
  for (const m of messages) {
    if (m.role === "user" && spoken(m)) out.push(...userUpdates(m));
    if (m.role !== "assistant") continue;
    if (typeof m.content === "string" && m.content) {
      out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: m.content } });
    }
    const calls = (m.tool_calls ?? []) as { id: string; function: { name: string; arguments: string } }[];
    for (const c of calls) {
      const args = argsOf(c.function.arguments);
      const result = results.get(c.id);
      const failed = result === undefined || /^\{"ok":false/.test(result);
      out.push({
        sessionUpdate: "tool_call",
        toolCallId: c.id,
        title: toolTitle(c.function.name, args),
        kind: toolKind(c.function.name),
        status: failed ? "failed" : "completed",
        rawInput: args,
        locations: toolLocations(args, workspace),
        ...(result !== undefined ? { content: [textContent(result)] } : {}),
      });
    }
  }
  return out;
}
