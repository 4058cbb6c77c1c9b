// What the commander program's commands get from `main`.
import type { NaviApp } from "../mod.ts";

/** What a command needs loaded: plugins (reported, quiet or skipped), and stdio MCP servers started early. */
export interface AppLoad {
  plugins?: "report" | "quiet" | "skip";
  mcp?: boolean;
}

/** What the program's commands get from `main`. */
export interface ProgramDeps {
  createApp(load?: AppLoad): Promise<NaviApp>;
  /** Close this app at exit with the others. */
  track(app: NaviApp): NaviApp;
  exit(code: number): void;
  /** The command line as given (to tell whether `--` was used). */
  args: string[];
}
