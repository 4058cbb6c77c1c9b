// Claude Code's vocabulary for hooks read from Claude Code's files: tool names and inputs as Claude Code shows
// them (`Bash {command}`, `Write {file_path, content}`, ...), and a hook's `updatedInput` mapped back to navi's.
import { isAbsolute, relative, resolve } from "node:path";

type Args = Record<string, unknown>;

/** One navi tool in Claude Code's words: its name and how its fields are renamed (navi -> Claude). */
interface Mapping {
  claude: string;
  fields: Record<string, string>;
  /** Fields holding a path: absolute in Claude Code's vocabulary. */
  paths?: string[];
}

const MAPPINGS: Record<string, Mapping> = {
  bash: {
    claude: "Bash",
    fields: { command: "command", timeout_ms: "timeout", run_in_background: "run_in_background" },
  },
  read_file: {
    claude: "Read",
    fields: { path: "file_path", offset: "offset", limit: "limit" },
    paths: ["path"],
  },
  write_file: { claude: "Write", fields: { path: "file_path", content: "content" }, paths: ["path"] },
  edit_file: {
    claude: "Edit",
    fields: {
      path: "file_path",
      old_string: "old_string",
      new_string: "new_string",
      replace_all: "replace_all",
    },
    paths: ["path"],
  },
  glob: { claude: "Glob", fields: { pattern: "pattern", path: "path" }, paths: ["path"] },
  grep: { claude: "Grep", fields: { pattern: "pattern", path: "path", glob: "glob" }, paths: ["path"] },
  list_dir: { claude: "LS", fields: { path: "path" }, paths: ["path"] },
  bash_output: { claude: "BashOutput", fields: { id: "bash_id", filter: "filter" } },
  kill_shell: { claude: "KillShell", fields: { id: "shell_id" } },
  todo_write: { claude: "TodoWrite", fields: { todos: "todos" } },
  skill: { claude: "Skill", fields: { name: "skill" } },
};

const BY_CLAUDE = new Map(Object.entries(MAPPINGS).map(([navi, m]) => [m.claude, navi]));

/** A tool's name as a hook of `vocabulary` sees it (MCP tools' `mcp__server__tool` is the same in both). */
export function hookToolName(name: string, vocabulary: "claude" | "navi"): string {
  return vocabulary === "claude" ? MAPPINGS[name]?.claude ?? name : name;
}

/** A navi tool input in Claude Code's words (paths made absolute against `workspace`). */
export function toClaudeInput(tool: string, args: Args, workspace: string): Args {
  const m = MAPPINGS[tool];
  if (!m) return args;
  const out: Args = {};
  for (const [key, value] of Object.entries(args)) {
    const path = m.paths?.includes(key) && typeof value === "string";
    const v = path ? resolve(workspace, value as string) : value;
    out[m.fields[key] ?? key] = v;
  }
  if (tool === "list_dir" && out.path === undefined) out.path = resolve(workspace);
  return out;
}

/** A Claude Code tool input (a hook's `updatedInput`) in navi's words for navi tool `tool`. */
export function fromClaudeInput(tool: string, input: Args, workspace: string): Args {
  const m = MAPPINGS[tool];
  if (!m) return input;
  const back = new Map(Object.entries(m.fields).map(([navi, claude]) => [claude, navi]));
  const out: Args = {};
  for (const [key, value] of Object.entries(input)) {
    const name = back.get(key) ?? key;
    const path = m.paths?.includes(name) && typeof value === "string";
    out[name] = path ? shortPath(value as string, workspace) : value;
  }
  return out;
}

function shortPath(path: string, workspace: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(resolve(workspace), path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** navi's tool for a Claude Code tool name (for `/hooks` and documentation), or the name itself. */
export function naviToolName(claude: string): string {
  return BY_CLAUDE.get(claude) ?? claude;
}
