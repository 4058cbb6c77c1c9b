/**
 * The project layer: the `.navi/` folders (and, with the `compat` switches, `.claude/`, `.agents/`,
 * `.mcp.json`) from the workspace up to its git root, and the user's own twins; project settings checked (no
 * providers, keys or base URLs; the sandbox and approval only narrowed) and merged over the user's config.json
 * with the file each value came from; workspace trust: what a folder would run, its hash, and
 * `$NAVI_HOME/trust.json`. Reading a project runs nothing.
 *
 * For other subsystems (hooks, subagents): {@link Project.layout} lists the folders found
 * ({@link ProjectFolder}); {@link Project.trusted} says whether the folder may run code;
 * {@link Project.addRunnables} adds what they would run to the trust prompt and hash before the trust check.
 * @module
 */
export {
  findProject,
  type FolderKind,
  projectConfigFiles,
  type ProjectFolder,
  type ProjectLayout,
  projectRoot,
} from "./layout.ts";
export { Project, type ProjectOptions, untrustedLine } from "./project.ts";
export {
  mergeConfig,
  type MergedConfig,
  type ProjectConfigRead,
  type ProjectSettings,
  readProjectConfig,
} from "./project_config.ts";
export { trustHash, type TrustItem, type TrustRecord, type TrustState, TrustStore } from "./trust.ts";
