import { type ApprovalClass, MAX_IMAGE_BYTES, type ToolResult } from "../tool/mod.ts";
import { fnv1a } from "../toollist/mod.ts";
import { base64Bytes } from "./bytes.ts";
import type { CallToolResult, McpTool } from "./sdk.ts";

/** The navi name of an MCP tool: `mcp__<server>__<tool>`, sanitized, at most 64 characters. */
export function exposedName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (full.length <= 64) return full;
  return `${full.slice(0, 55)}_${fnv1a(`mcp__${server}__${tool}`)}`;
}

/** Approval class from MCP annotations: readOnlyHint -> read_only; destructiveHint false -> write; else command. */
export function approvalFor(tool: McpTool): ApprovalClass {
  if (tool.annotations?.readOnlyHint === true) return "read_only";
  if (tool.annotations?.destructiveHint === false) return "write";
  return "command";
}

/** A model-facing description for an MCP tool. */
export function describe(server: string, tool: McpTool): string {
  const text = (tool.description ?? "").trim() || tool.title || tool.name;
  return `${text}\n(MCP server ${server}, tool ${tool.name})`;
}

/** Convert a CallToolResult into a navi ToolResult: text and structured content, images as control signals. */
export function convertResult(result: CallToolResult): ToolResult {
  const texts: string[] = [];
  let image: string | undefined;
  for (const part of result.content ?? []) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "image") {
      const bytes = base64Bytes(part.data);
      if (bytes > MAX_IMAGE_BYTES) {
        texts.push(`[image ${part.mimeType}, ${bytes} bytes: over the 5 MB image limit, not attached]`);
      } else if (image) texts.push(`[image ${part.mimeType}, not attached: one image per result]`);
      else {
        image = `data:${part.mimeType};base64,${part.data}`;
        texts.push(`[image ${part.mimeType}, attached]`);
      }
    } else if (part.type === "audio") texts.push(`[audio ${part.mimeType}, not shown]`);
    else if (part.type === "resource") {
      const r = part.resource as { uri: string; text?: string; mimeType?: string };
      texts.push(
        r.text !== undefined
          ? `[resource ${r.uri}]\n${r.text}`
          : `[resource ${r.uri} (${r.mimeType ?? "binary"})]`,
      );
    } else if (part.type === "resource_link") {
      texts.push(`[resource link ${part.uri}${part.name ? ` ${part.name}` : ""}]`);
    }
  }
  const output = texts.join("\n");
  if (result.isError) return { ok: false, error: output || "The MCP tool reported an error" };
  return {
    ok: true,
    output,
    ...(result.structuredContent ? { structured: result.structuredContent } : {}),
    ...(image ? { _multimodal: true, _image_data_url: image } : {}),
  };
}
