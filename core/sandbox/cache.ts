// The self-test's result on disk ($NAVI_HOME/cache/sandbox.json), valid while the sandbox binary, the kernel,
// the user, the machine and navi's sandbox rules stay the same.
import { dirname, join } from "node:path";

/** Bump when the rules the self-test checks change, so that old results are not trusted. */
const RULES_REVISION = 2;

/** What a cached result depends on. */
export type CacheKey = Record<string, string | number>;

/** What is cached: the backend's version and the passing self-test lines. */
export interface CachedResult {
  version: string;
  checks: { name: string; ok: boolean; detail: string; optional?: boolean }[];
  ms: number;
}

/** The cache file under navi's home. */
export function cachePath(home: string): string {
  return join(home, "cache", "sandbox.json");
}

/** The key for the sandbox binary at `binary` (stat only: no process is started). */
export async function cacheKey(binary: string, naviVersion: string): Promise<CacheKey> {
  const real = await Deno.realPath(binary);
  const info = await Deno.stat(real);
  return {
    rules: RULES_REVISION,
    navi: naviVersion,
    binary: real,
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
    inode: info.ino ?? 0,
    kernel: Deno.osRelease(),
    arch: Deno.build.arch,
    uid: Deno.uid() ?? -1,
  };
}

/** The cached result for `key`, or undefined (missing, unreadable, other key). */
export async function readCache(file: string, key: CacheKey): Promise<CachedResult | undefined> {
  try {
    const data = JSON.parse(await Deno.readTextFile(file)) as { key: CacheKey; result: CachedResult };
    if (JSON.stringify(data.key) !== JSON.stringify(key)) return undefined;
    return data.result;
  } catch {
    return undefined;
  }
}

/** Store a passing result (atomically; a failure to write only costs the next start a self-test). */
export async function writeCache(
  file: string,
  entry: { key: CacheKey; result: CachedResult },
): Promise<void> {
  try {
    await Deno.mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(entry, null, 2) + "\n");
    await Deno.rename(tmp, file);
  } catch { /* the cache is an optimisation */ }
}
