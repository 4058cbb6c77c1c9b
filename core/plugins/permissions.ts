import { isAbsolute, join } from "node:path";
import type { PermissionSettings } from "../config/mod.ts";
import type { PluginPermissions } from "./api.ts";

/** What a plugin may do when it declares nothing: read the workspace. */
export const DEFAULT_PERMISSIONS: PluginPermissions = { read: ["$WORKSPACE"] };

/** The permission kinds a plugin can be granted, in display order. */
export const PERMISSION_KINDS = ["read", "write", "net", "env", "run"] as const;

/** Deno's permission set for a worker (`deno.permissions` of `new Worker`). */
export interface WorkerPermissions {
  /** Paths it may read, or all. */
  read: boolean | string[];
  /** Paths it may write, or all. */
  write: boolean | string[];
  /** Hosts it may reach, or all. */
  net: boolean | string[];
  /** Variables it may read (never navi's secrets). */
  env: boolean | string[];
  /** Programs it may start, or all. */
  run: boolean | string[];
  /** Never. */
  ffi: false;
  /** Never. */
  sys: false;
  /** Never (plugins import only their own linked files and node: built-ins). */
  import: false;
}

/** Where `$WORKSPACE` and `$HOME` point, and which environment variables are not navi's secrets. */
export interface PermissionContext {
  /** What `$WORKSPACE` and relative paths mean. */
  workspace: string;
  /** The user's home directory (`$HOME`). */
  userHome: string;
  /** Names of the environment variables a plugin may be given (navi's secrets already removed). */
  envNames: string[];
}

function expandPath(entry: string, ctx: PermissionContext): string {
  const m = /^\$(WORKSPACE|HOME)(?=\/|$)/.exec(entry);
  if (m) return join(m[1] === "WORKSPACE" ? ctx.workspace : ctx.userHome, entry.slice(m[0].length) || ".");
  return isAbsolute(entry) ? entry : join(ctx.workspace, entry);
}

/**
 * Deno worker permissions for a grant: paths expanded, `env` limited to variables that are not navi's
 * secrets (`env: true` becomes that list), ffi, sys and remote imports always off.
 */
export function workerPermissions(grant: PluginPermissions, ctx: PermissionContext): WorkerPermissions {
  const paths = (g: PluginPermissions["read"]) =>
    Array.isArray(g) ? g.map((p) => expandPath(p, ctx)) : g === true;
  const list = (g: PluginPermissions["net"]) => (Array.isArray(g) ? [...g] : g === true);
  const allowed = new Set(ctx.envNames);
  const env = grant.env === true
    ? [...allowed]
    : Array.isArray(grant.env)
    ? grant.env.filter((n) => allowed.has(n))
    : false;
  return {
    read: paths(grant.read),
    write: paths(grant.write),
    net: list(grant.net),
    env: Array.isArray(env) && !env.length ? false : env,
    run: list(grant.run),
    ffi: false,
    sys: false,
    import: false,
  };
}

/** One line for `navi plugins`: `read $WORKSPACE; net api.example.com:443`, or `none`. */
export function describePermissions(grant: PluginPermissions): string {
  const parts: string[] = [];
  for (const kind of PERMISSION_KINDS) {
    const g = grant[kind];
    if (g === true) parts.push(`${kind} all`);
    else if (Array.isArray(g) && g.length) parts.push(`${kind} ${g.join(", ")}`);
  }
  return parts.join("; ") || "none";
}

// The plugin API declares PluginPermissions for plugin authors; config.json's `plugins.<name>.permissions` is
// declared in core/config (which must not import the plugin API). Changing one without the other fails here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const _sameAsConfig: Same<PermissionSettings, PluginPermissions> = true;
