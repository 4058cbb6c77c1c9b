import readFile from "./read_file.ts";
import writeFile from "./write_file.ts";
import editFile from "./edit_file.ts";
import listDir from "./list_dir.ts";
import glob from "./glob.ts";
import grep from "./grep.ts";
import bash from "./bash.ts";
import bashOutput from "./bash_output.ts";
import killShell from "./kill_shell.ts";
import todoWrite from "./todo_write.ts";
import skill from "./skill.ts";
import { type Tool } from "../core/mod.ts";

/** The built-in tools in their fixed, model-facing order. */
export function builtinTools(): Tool[] {
  return [readFile, writeFile, editFile, listDir, glob, grep, bash, bashOutput, killShell, todoWrite, skill];
}
