// The agents one app knows: the built-ins, then the files of its agent folders (highest precedence first).
import { join } from "node:path";
import type { ProjectFolder, TrustItem } from "../project/mod.ts";
import { listFiles, outsideProject } from "../extensions/mod.ts";
import { type AgentDefinition, type AgentLevel, readAgentFile } from "./definition.ts";

/** A folder whose `*.md` files are agent definitions (an `agents/` folder). */
export interface AgentFolder {
  /** The folder itself (absolute), e.g. `/repo/.claude/agents`. */
  path: string;
  /** Whose it is: project folders need trust, user and plugin folders do not. */
  level: Exclude<AgentLevel, "builtin">;
  /** For a project folder: the project root its files may not point outside of. */
  root?: string;
}

/** The built-in agents: `general` (the parent's tools) and `explore` (its read-only tools). */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "explore",
    description:
      "Searches and reads the code base without changing anything (read-only tools) and reports what it found; for questions that need many searches.",
    prompt: [
      "You are a read-only explorer working for another agent. Search and read the workspace to answer the task.",
      "You cannot change files or run commands.",
      "",
      "How to search:",
      "- Start wide and narrow down: glob for the files that may matter (by name or extension), grep for the",
      "  identifiers, messages or strings the task names, list_dir where the layout itself is the question.",
      "- Read only what you need: read_file with offset and limit around the lines grep found, not whole large",
      "  files. Follow definitions and call sites until you can answer, then stop.",
      "- Search several spellings when a first search finds nothing (camelCase, snake_case, a shorter stem),",
      "  and say so when something the task expects to exist does not.",
      "- Make independent searches in one response: they run at the same time.",
      "",
      "How to answer (your last message is all the other agent sees):",
      "- Lead with the answer itself, then the evidence: file paths with line numbers and the few lines that",
      "  matter, quoted exactly.",
      "- Keep it short: no narration of how you searched, nothing the task did not ask for.",
      "- Say plainly what you could not find or are unsure of.",
    ].join("\n"),
    readOnly: true,
    disallowedTools: ["task", "todo_write", "bash_output", "kill_shell"],
    level: "builtin",
  },
  {
    name: "general",
    description:
      "A general-purpose agent with the same tools as you, for a self-contained multi-step task whose intermediate results you do not need.",
    prompt: [
      "You are an agent working for another agent on one self-contained task. Do the task with your tools,",
      "then answer with the result: what you found or changed, briefly, with file paths. Your final message is",
      "all the other agent sees.",
    ].join("\n"),
    disallowedTools: ["todo_write"],
    level: "builtin",
  },
];

/** The agent folders of a project layer: `agents/` of navi's and (with `compat.claude`) Claude Code's folders. */
export function agentFolders(folders: readonly ProjectFolder[]): AgentFolder[] {
  return folders
    .filter((f) => f.kind === "navi" || f.kind === "claude")
    .map((f) => ({
      path: join(f.path, "agents"),
      level: f.level,
      ...(f.root ? { root: f.root } : {}),
    }));
}

/** The agents of one app, found once at start-up. */
export class AgentCatalog {
  /** Every agent, sorted by name (the order the `task` tool lists them). */
  readonly agents: readonly AgentDefinition[];
  /** One line per file skipped, name shadowed or tool name unknown. */
  readonly problems: readonly string[];
  /** Every definition read, highest precedence first (shadowed ones too: they return without the project's). */
  #all: readonly AgentDefinition[];

  private constructor(all: readonly AgentDefinition[], problems: readonly string[]) {
    this.#all = all;
    const byName = new Map<string, AgentDefinition>();
    for (const a of [...all, ...BUILTIN_AGENTS]) if (!byName.has(a.name)) byName.set(a.name, a);
    this.agents = sortAgents([...byName.values()]);
    this.problems = problems;
  }

  /** The built-ins only. */
  static builtin(): AgentCatalog {
    return new AgentCatalog([], []);
  }

  /**
   * Read the `*.md` files of `folders` (highest precedence first: a name found earlier shadows a later one,
   * and files shadow built-ins). A bad file is one line in `problems`; the others still load.
   */
  static async load(folders: readonly AgentFolder[]): Promise<AgentCatalog> {
    const all: AgentDefinition[] = [];
    const problems: string[] = [];
    for (const folder of folders) {
      for (const rel of listFiles(folder.path, { ext: ".md", limit: 200 })) {
        const file = join(folder.path, rel);
        const outside = outsideProject(
          {
            kind: "navi",
            level: folder.level === "project" ? "project" : "user",
            path: folder.path,
            root: folder.root,
          },
          file,
        );
        if (outside) {
          problems.push(`${file}: ${outside}`);
          continue;
        }
        try {
          const read = await readAgentFile(file, folder.level);
          if (read.note) problems.push(read.note);
          if (!read.agent) continue;
          const earlier = all.find((a) => a.name === read.agent!.name);
          if (earlier) problems.push(`${file}: agent ${read.agent.name} is shadowed by ${earlier.file}`);
          all.push(read.agent);
        } catch (err) {
          problems.push(oneLine((err as Error).message, file));
        }
      }
    }
    return new AgentCatalog(all, problems);
  }

  /** The agent named `name`. */
  get(name: string): AgentDefinition | undefined {
    return this.agents.find((a) => a.name === name);
  }

  /** This catalog without the project's agents (an untrusted folder). */
  withoutProject(): AgentCatalog {
    return new AgentCatalog(this.#all.filter((a) => a.level !== "project"), this.problems);
  }

  /** What the project's agents would change, for the trust prompt and hash (one item per file). */
  runnables(): TrustItem[] {
    return sortAgents(this.#all.filter((a) => a.level === "project" && a.file)).map((a) => ({
      kind: "agent",
      what: `agent ${a.name}${a.tools ? ` (tools: ${a.tools.join(", ") || "none"})` : " (all tools)"}`,
      file: a.file!,
      name: a.name,
    }));
  }
}

function sortAgents(agents: AgentDefinition[]): AgentDefinition[] {
  return agents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function oneLine(message: string, file: string): string {
  const line = message.split("\n")[0];
  return line.includes(file) ? line : `${file}: ${line}`;
}
