/**
 * `@mentions` in a user message: one pipeline for every front. Files of the workspace are the built-in kind;
 * other kinds (MCP resources as `@server:uri`) plug in as a {@link MentionProvider}.
 * @module
 */
export {
  type Attachment,
  completeMention,
  expandMentions,
  fileMentions,
  MAX_ATTACH_BYTES,
  mentionAt,
  type MentionProvider,
} from "./mentions.ts";
