/**
 * Subagents: agent files in the formats users keep (Markdown with YAML frontmatter in `agents/` folders:
 * navi's, Claude Code's, plugins'), the built-in `general` and `explore` agents, the `task` tool that starts
 * them and the {@link SubagentHost} that runs each one on the same Agent loop and ToolCallRunner as its
 * parent, with a fresh context, tools and approval mode never wider than the parent's, a transcript under
 * the parent's session and a prefix of its own that stays byte-identical from one run to the next.
 * @module
 */
export { AgentCatalog, type AgentFolder, agentFolders, BUILTIN_AGENTS } from "./catalog.ts";
export {
  AGENT_NAME,
  type AgentDefinition,
  type AgentLevel,
  mapToolNames,
  type ReadAgent,
  readAgentFile,
} from "./definition.ts";
export { SubagentHost, type SubagentHostOptions } from "./host.ts";
export { subagentSystemPrompt, usageLine } from "./prompt.ts";
export { OneAtATime, Slots } from "./slots.ts";
export { agentList, taskTool } from "./task_tool.ts";
export { onlyThese, stricterMode, subagentTools, TASK_TOOL } from "./tools.ts";
