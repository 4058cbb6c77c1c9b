import { join } from "node:path";

/** navi's home directory: `$NAVI_HOME`, else `~/.navi`. */
export function naviHome(env: { get(key: string): string | undefined } = Deno.env): string {
  const explicit = env.get("NAVI_HOME");
  if (explicit) return explicit;
  return join(env.get("HOME") ?? env.get("USERPROFILE") ?? ".", ".navi");
}

/** Path of config.json under a home directory. */
export function configPath(home: string): string {
  return join(home, "config.json");
}
