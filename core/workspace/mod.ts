/**
 * The workspace: paths resolved inside it (symlinks and hard links judged), files walked with globs, binary
 * files recognised.
 * @module
 */
export { globToRegExp, looksBinary, walkFiles } from "./files.ts";
export { dirsDown, displayPath, gitRoot, isInside, resolveInWorkspace } from "./paths.ts";
