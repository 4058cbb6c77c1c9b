// One agent file: Markdown with YAML frontmatter (Claude Code's subagent format), read into a definition.
import type { ApprovalMode } from "../config/mod.ts";
import { FrontmatterError, parseFrontmatter, readExtensionFile, stringList } from "../extensions/mod.ts";

/** Where an agent comes from. */
export type AgentLevel = "builtin" | "user" | "project" | "plugin";

/** A subagent the `task` tool can start. */
export interface AgentDefinition {
  /** The name the model passes as `agent`. */
  name: string;
  /** When to use it, for the model (listed in the `task` tool's description). */
  description: string;
  /** The system prompt (the file's body). */
  prompt: string;
  /**
   * The tools it may use as navi names or globs (`mcp__server__*`); absent: every tool the parent may use.
   * Built-in `explore` uses the parent's read-only tools (`readOnly`).
   */
  tools?: string[];
  /** Tools taken away from `tools` (names or globs). */
  disallowedTools: string[];
  /** Only the parent's read-only tools (the built-in `explore`). */
  readOnly?: boolean;
  /** A model to run on instead of the parent's (absent: the parent's; Claude's aliases mean the parent's). */
  model?: string;
  /** Model requests it may make (absent: `agents.max_turns`, default 20). */
  maxTurns?: number;
  /** The approval mode it asks for; the parent's mode wins when it is stricter. */
  permissionMode?: ApprovalMode;
  /** The file it was read from (absent for built-ins). */
  file?: string;
  /** Whose it is. */
  level: AgentLevel;
}

/** Claude Code's tool names and what they are in navi (`undefined`: no navi equivalent). */
const CLAUDE_TOOLS: Record<string, string | undefined> = {
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Glob: "glob",
  Grep: "grep",
  LS: "list_dir",
  Bash: "bash",
  BashOutput: "bash_output",
  KillShell: "kill_shell",
  KillBash: "kill_shell",
  TodoWrite: "todo_write",
  Skill: "skill",
  Task: "task",
  Agent: "task",
  WebFetch: undefined,
  WebSearch: undefined,
  NotebookEdit: undefined,
  NotebookRead: undefined,
};

const NAVI_NAME = /^[a-zA-Z0-9_*?-]{1,64}$/;

/**
 * Map the tool names of an agent file to navi's: Claude Code's (`Read`, `Bash(git *)`, `Task(reviewer)`),
 * navi's own and MCP names (`mcp__server__tool`, globs) pass; `unknown` collects the names navi cannot use.
 */
export function mapToolNames(names: readonly string[]): { tools: string[]; unknown: string[] } {
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim().replace(/\(.*\)$/s, "");
    if (!name) continue;
    if (Object.hasOwn(CLAUDE_TOOLS, name)) {
      const mapped = CLAUDE_TOOLS[name];
      if (mapped) tools.push(mapped);
      else unknown.push(name);
    } else if (NAVI_NAME.test(name) && /^[a-z*]/.test(name)) tools.push(name);
    else unknown.push(name.slice(0, 40));
  }
  return { tools: [...new Set(tools)], unknown };
}

const MODES: Record<string, ApprovalMode> = {
  plan: "plan",
  default: "ask",
  ask: "ask",
  acceptEdits: "ask",
  dontAsk: "ask",
  auto: "auto",
  bypassPermissions: "auto",
};

/** Claude Code's model aliases: the subagent runs on the parent's model. */
const INHERIT = new Set(["inherit", "sonnet", "opus", "haiku"]);

/** An agent name: lowercase letters, digits and hyphens (Claude Code's rule), at most 64 characters. */
export const AGENT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** What reading one file gave: the definition (absent when the file is disabled) and its notes. */
export interface ReadAgent {
  /** The definition, unless the file says `disabled: true`. */
  agent?: AgentDefinition;
  /** One line naming the file, when some of its tool names mean nothing to navi. */
  note?: string;
}

/**
 * Read the agent file `file` (`level` says whose it is). Throws a one-line Error naming the file for a file
 * navi cannot use: bad frontmatter, no name or description, wrong types.
 */
export async function readAgentFile(file: string, level: AgentLevel): Promise<ReadAgent> {
  const fm = await parseFrontmatter(await readExtensionFile(file), file);
  const d = fm.data;
  const bad = (what: string) => new FrontmatterError(file, 2, what);
  if (d.disabled === true) return {};
  const name = typeof d.name === "string" ? d.name.trim() : fileName(file);
  if (!AGENT_NAME.test(name)) throw bad(`the agent name ${JSON.stringify(name.slice(0, 40))} is not valid`);
  if (typeof d.description !== "string" || !d.description.trim()) throw bad("the agent has no description");
  const listOf = (key: string) => {
    if (d[key] === undefined || d[key] === null) return undefined;
    const list = stringList(d[key]);
    if (!list) throw bad(`${key} must be a list of tool names`);
    return list;
  };
  const declared = listOf("tools");
  const denied = listOf("disallowedTools") ?? [];
  const tools = declared && mapToolNames(declared);
  const off = mapToolNames(denied);
  const unknown = [...new Set([...(tools?.unknown ?? []), ...off.unknown])];
  const maxTurns = d.maxTurns;
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || (maxTurns as number) < 1)) {
    throw bad("maxTurns must be a positive whole number");
  }
  const mode = d.permissionMode;
  if (mode !== undefined && (typeof mode !== "string" || !Object.hasOwn(MODES, mode))) {
    throw bad(`permissionMode ${JSON.stringify(String(mode).slice(0, 30))} is not one navi knows`);
  }
  const model = typeof d.model === "string" && !INHERIT.has(d.model.trim()) ? d.model.trim() : undefined;
  const agent: AgentDefinition = {
    name,
    description: oneLine(d.description),
    prompt: fm.body.trim(),
    ...(tools ? { tools: tools.tools } : {}),
    disallowedTools: off.tools,
    ...(model ? { model } : {}),
    ...(maxTurns !== undefined ? { maxTurns: maxTurns as number } : {}),
    ...(mode !== undefined ? { permissionMode: MODES[mode as string] } : {}),
    file,
    level,
  };
  const note = unknown.length
    ? `${file}: tools navi does not have are left out: ${unknown.join(", ")}`
    : undefined;
  return { agent, ...(note ? { note } : {}) };
}

function fileName(file: string): string {
  return (file.split(/[\\/]/).at(-1) ?? "").replace(/\.md$/, "");
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
