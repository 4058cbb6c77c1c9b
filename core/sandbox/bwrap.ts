// Linux: the bubblewrap command line for one confined command.
import { delimiter, join } from "node:path";

/** What one confined command may touch; every path is absolute and real (symbolic links resolved). */
export interface ConfinePlan {
  /** The workspace: writable. */
  workspace: string;
  /** Where the command starts. */
  cwd: string;
  /** More writable directories (`sandbox.writable`). */
  writable: string[];
  /** Directories covered by an empty file system (navi's home: config, keys, sessions). */
  hide: string[];
  /** Writable directories bound onto themselves so that they cannot be renamed or replaced. */
  pin: string[];
  /** Paths inside writable directories that stay read-only. */
  readOnly: string[];
  /** Whether the command may use the network (and Unix sockets). */
  network: boolean;
  /**
   * Without network: the command already runs in its session's network namespace (nsenter), so bubblewrap
   * makes none of its own; otherwise each command gets one.
   */
  sharedNet?: boolean;
}

const depth = (path: string) => path.split("/").filter(Boolean).length;

/**
 * bubblewrap's arguments for `argv` under `plan`: a read-only root, a private /tmp, the writable paths, a new
 * PID, IPC and UTS namespace, no capabilities (a root user keeps all of them otherwise and could unmount the
 * read-only binds), /proc/sys read-only, and without network a network namespace of its own (unless it joined
 * its session's, `sharedNet`) plus the seccomp filter read from `seccompFd`.
 */
export function bwrapArgs(plan: ConfinePlan, argv: string[], opts: { seccompFd?: number } = {}): string[] {
  const mounts: { depth: number; args: string[] }[] = [];
  const add = (path: string, args: string[]) => mounts.push({ depth: depth(path), args });
  add("/tmp", ["--tmpfs", "/tmp"]);
  for (const p of plan.hide) add(p, ["--tmpfs", p]);
  for (const p of [plan.workspace, ...plan.writable, ...plan.pin]) add(p, ["--bind", p, p]);
  for (const p of plan.readOnly) add(p, ["--ro-bind", p, p]);
  mounts.sort((a, b) => a.depth - b.depth);
  return [
    "--new-session",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    ...(plan.network || plan.sharedNet ? [] : ["--unshare-net"]),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    ...mounts.flatMap((m) => m.args),
    ...(opts.seccompFd === undefined ? [] : ["--seccomp", String(opts.seccompFd)]),
    "--chdir",
    plan.cwd,
    "--",
    ...argv,
  ];
}

/**
 * The argv that runs `argv` confined by the bubblewrap binary `bwrap`. Without network the seccomp filter in
 * `filterFile` is handed over as fd 3 by `/bin/sh` (Deno cannot pass extra descriptors to a child).
 */
export function bwrapCommand(
  bwrap: string,
  plan: ConfinePlan,
  opts: { argv: string[]; filterFile?: string },
): string[] {
  if (plan.network) return [bwrap, ...bwrapArgs(plan, opts.argv)];
  if (!opts.filterFile) throw new Error("sandbox: no seccomp filter for a command without network");
  return [
    "/bin/sh",
    "-c",
    'exec 3<"$1" || exit 126; shift; exec "$@"',
    "navi-sandbox",
    opts.filterFile,
    bwrap,
    ...bwrapArgs(plan, opts.argv, { seccompFd: 3 }),
  ];
}

/** The executable `name` (a path, or looked up on `PATH`), or undefined when there is none. */
export function findExecutable(name: string, path: string | undefined): string | undefined {
  const isFile = (p: string) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  };
  if (name.includes("/")) return isFile(name) ? name : undefined;
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir && isFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
