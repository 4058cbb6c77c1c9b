// The start-up self-test: one confined shell in a throw-away workspace tries what the sandbox must stop.
import { join } from "node:path";
import type { ConfinePlan } from "./bwrap.ts";
import { guardGit } from "./git_guard.ts";

/** One line of the self-test. */
export interface SelfTestCheck {
  /** What was tried, e.g. "write outside the workspace fails". */
  name: string;
  /** Whether the sandbox behaved as it must. */
  ok: boolean;
  /** What the command said (its error when it was stopped), or why the check was skipped. */
  detail: string;
  /** A failure costs a feature, not safety: the sandbox stays enforced (the session's shared network). */
  optional?: boolean;
}

const SCRIPT = String.raw`
check() { want=$1; name=$2; shift 2; out=$("$@" 2>&1 </dev/null); rc=$?; out=$(printf %s "$out" | tr '\n\t' '  ' | cut -c1-160); printf '%s\t%s\t%s\t%s\n' "$name" "$want" "$rc" "$out"; }
check 0 inside touch ./probe
check 1 outside touch "$NAVI_PROBE_OUTSIDE"
check 1 hooks sh -c 'echo exit 1 > .git/hooks/pre-commit'
check 1 tcp bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$NAVI_PROBE_PORT"'
if command -v perl >/dev/null; then
  check 1 unix perl -e 'use Socket; socket(S, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!\n"; connect(S, pack_sockaddr_un($ARGV[0])) or die "connect: $!\n"' "$NAVI_PROBE_SOCKET"
else printf 'unix\tskip\t0\tperl not found\n'; fi
if [ -e /proc/self/ns/pid ]; then check 0 pidns readlink /proc/self/ns/pid
else printf 'pidns\tskip\t0\tno /proc on this system\n'; fi
printf 'netns\t0\t0\t%s\n' "$(readlink /proc/self/ns/net 2>/dev/null)"
`;

const NAMES: Record<string, string> = {
  inside: "write inside the workspace succeeds",
  outside: "write outside the workspace fails",
  hooks: "write to .git/hooks fails",
  tcp: "TCP connect to 127.0.0.1 outside the sandbox fails",
  unix: "Unix socket connect fails",
  pidns: "navi's process is invisible (own PID namespace)",
  netns: "the commands of one session share a private network (loopback between them works)",
};

async function accepting(listener: Deno.Listener): Promise<number> {
  let accepted = 0;
  try {
    for await (const conn of listener) {
      accepted++;
      conn.close();
    }
  } catch { /* closed */ }
  return accepted;
}

function parse(stdout: string, ownPidNs: string): SelfTestCheck[] {
  const checks: SelfTestCheck[] = [];
  for (const line of stdout.split("\n")) {
    const [key, want, rc, detail = ""] = line.split("\t");
    if (!NAMES[key]) continue;
    if (key === "netns") continue;
    if (want === "skip") {
      checks.push({ name: NAMES[key], ok: true, detail: `skipped: ${detail}` });
    } else if (key === "pidns") {
      checks.push({ name: NAMES[key], ok: rc === "0" && detail !== ownPidNs, detail: `inside ${detail}` });
    } else {
      const ok = want === "0" ? rc === "0" : rc !== "0";
      checks.push({ name: NAMES[key], ok, detail: detail || `exit ${rc}` });
    }
  }
  return checks;
}

/** The network namespace a line of the script's output names (the `netns` line). */
function netnsOf(stdout: string): string {
  return stdout.split("\n").find((l) => l.startsWith("netns\t"))?.split("\t")[3] ?? "";
}

/**
 * Whether a second command of the session lands in the first one's network namespace, which is not navi's.
 * `shared` is true when commands join the session's namespace, else why they cannot.
 */
async function sharedNetCheck(
  run: (argv: string[]) => Promise<string>,
  first: string,
  shared: true | string,
): Promise<SelfTestCheck> {
  const check = (ok: boolean, detail: string) => ({ name: NAMES.netns, ok, detail, optional: true });
  if (shared !== true) return check(false, `${shared}: each command has a loopback of its own`);
  const second = (await run(["readlink", "/proc/self/ns/net"])).trim();
  const own = await Deno.readLink("/proc/self/ns/net").catch(() => "");
  if (!first || first === own) {
    return check(false, `the first command ran in navi's network (${first || "?"})`);
  }
  return check(second === first, second === first ? `both in ${first}` : `${first}, then ${second || "?"}`);
}

/**
 * Run the self-test through `wrap` (which turns a plan and an argv into the confined argv) in a temporary
 * workspace; a write to `outside` (a directory outside it, e.g. $HOME) must not land. With `shared` (true,
 * or why not) the commands join one session's network namespace and a second command checks it.
 */
export async function runSelfTest(
  wrap: (plan: ConfinePlan, argv: string[]) => Promise<string[]>,
  opts: { outside?: string; env: Record<string, string>; shared?: true | string },
): Promise<SelfTestCheck[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "navi-sandbox-test-" }));
  const ws = join(root, "ws");
  const probe = join(opts.outside ?? root, `.navi-sandbox-probe-${crypto.randomUUID().slice(0, 8)}`);
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const unix = Deno.listen({ transport: "unix", path: join(root, "probe.sock") });
  const tcpAccepted = accepting(tcp);
  const unixAccepted = accepting(unix);
  try {
    await Deno.mkdir(join(ws, ".git"), { recursive: true });
    const guard = await guardGit(ws);
    const plan: ConfinePlan = {
      workspace: ws,
      cwd: ws,
      writable: [],
      hide: [],
      pin: guard.pin,
      readOnly: guard.readOnly,
      network: false,
    };
    const env = {
      ...opts.env,
      NAVI_PROBE_OUTSIDE: probe,
      NAVI_PROBE_PORT: String((tcp.addr as Deno.NetAddr).port),
      NAVI_PROBE_SOCKET: join(root, "probe.sock"),
    };
    const spawn = async (argv: string[]) => {
      const [cmd, ...args] = await wrap(plan, argv);
      return await new Deno.Command(cmd, {
        args,
        cwd: ws,
        clearEnv: true,
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
    };
    const out = await spawn(["bash", "-c", SCRIPT]);
    const stdout = new TextDecoder().decode(out.stdout);
    const ownPidNs = await Deno.readLink("/proc/self/ns/pid").catch(() => "");
    const checks = parse(stdout, ownPidNs);
    if (!checks.length) {
      const err = new TextDecoder().decode(out.stderr).trim().split("\n")[0] || `exit ${out.code}`;
      return [{ name: "the sandbox starts", ok: false, detail: err }];
    }
    const landed = await Deno.lstat(probe).then(() => true, () => false);
    if (landed) {
      await Deno.remove(probe).catch(() => {});
      for (const c of checks) {
        if (c.name === NAMES.outside) Object.assign(c, { ok: false, detail: "the file landed" });
      }
    }
    if (opts.shared !== undefined) {
      const run = async (argv: string[]) => new TextDecoder().decode((await spawn(argv)).stdout);
      checks.push(await sharedNetCheck(run, netnsOf(stdout), opts.shared));
    }
    tcp.close();
    unix.close();
    if (await tcpAccepted) checks.push({ name: NAMES.tcp, ok: false, detail: "a connection arrived" });
    if (await unixAccepted) checks.push({ name: NAMES.unix, ok: false, detail: "a connection arrived" });
    return checks;
  } finally {
    try {
      tcp.close();
    } catch { /* closed */ }
    try {
      unix.close();
    } catch { /* closed */ }
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}
