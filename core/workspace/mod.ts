/**
 * The workspace: paths resolved inside it (symlinks and hard links judged), files walked with globs, binary
 * files recognised.
 * @module
 */
export { globToRegExp, looksBinary, walkFiles } from "./files.ts";
export { displayPath, isInside, resolveInWorkspace } from "./paths.ts";
