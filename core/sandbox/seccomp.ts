// A classic-BPF seccomp filter for bubblewrap's `--seccomp FD`: without network, a command may not create
// Unix domain sockets (connecting to docker.sock, an ssh or D-Bus agent would hand it authority outside the
// sandbox; a read-only mount does not stop connect()) nor io_uring rings (whose socket operations seccomp
// cannot see). Every other system call is allowed; an unknown ABI (x32, foreign) ends the process.

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const RET_KILL_PROCESS = 0x80000000;
const AF_UNIX = 1;
const X32_SYSCALL_BIT = 0x40000000;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

/** System call numbers of one ABI. */
interface Abi {
  audit: number;
  socket: number;
  ioUringSetup: number;
  socketcall?: number;
  x32?: boolean;
}

/** The native ABI and its 32-bit compat ABI for each machine the filter supports. */
const MACHINES: Record<string, [Abi, Abi]> = {
  x86_64: [
    { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32: true },
    { audit: 0x40000003, socket: 359, ioUringSetup: 425, socketcall: 102 },
  ],
  aarch64: [
    { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
    { audit: 0x40000028, socket: 281, ioUringSetup: 425, socketcall: 102 },
  ],
};

type Target = string;
type Ins = { code: number; k: number; jt?: Target; jf?: Target } | { label: Target };

function abiBlock(abi: Abi, name: string): Ins[] {
  const out: Ins[] = [{ label: name }, { code: LD_W_ABS, k: OFFSET_NR }];
  const next = (i: number) => `${name}.${i}`;
  let n = 0;
  const test = (code: number, k: number, hit: Target) => {
    const miss = next(n++);
    out.push({ code, k, jt: hit, jf: miss }, { label: miss });
  };
  if (abi.x32) test(JGE_K, X32_SYSCALL_BIT, "kill");
  if (abi.socketcall !== undefined) test(JEQ_K, abi.socketcall, "deny");
  test(JEQ_K, abi.socket, "family");
  test(JEQ_K, abi.ioUringSetup, "deny");
  out.push({ code: RET_K, k: RET_ALLOW });
  return out;
}

function assemble(program: Ins[]): Uint8Array {
  const labels = new Map<Target, number>();
  const code: Exclude<Ins, { label: Target }>[] = [];
  for (const ins of program) {
    if ("label" in ins) labels.set(ins.label, code.length);
    else code.push(ins);
  }
  const bytes = new Uint8Array(code.length * 8);
  const view = new DataView(bytes.buffer);
  code.forEach((ins, i) => {
    const jump = (t?: Target) => {
      if (t === undefined) return 0;
      const offset = labels.get(t)! - (i + 1);
      if (!(offset >= 0 && offset < 256)) throw new Error(`seccomp: jump to ${t} out of range`);
      return offset;
    };
    view.setUint16(i * 8, ins.code, true);
    view.setUint8(i * 8 + 2, jump(ins.jt));
    view.setUint8(i * 8 + 3, jump(ins.jf));
    view.setUint32(i * 8 + 4, ins.k >>> 0, true);
  });
  return bytes;
}

/** The filter for `machine` (`Deno.build.arch`), or undefined when navi has none for it. */
export function seccompFilter(machine: string): Uint8Array | undefined {
  const abis = MACHINES[machine];
  if (!abis) return undefined;
  const [native, compat] = abis;
  return assemble([
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JEQ_K, k: native.audit, jt: "native", jf: "other" },
    { label: "other" },
    { code: JEQ_K, k: compat.audit, jt: "compat", jf: "kill" },
    ...abiBlock(native, "native"),
    ...abiBlock(compat, "compat"),
    { label: "family" },
    { code: LD_W_ABS, k: OFFSET_ARG0_LOW },
    { code: JEQ_K, k: AF_UNIX, jt: "deny", jf: "allow" },
    { label: "deny" },
    { code: RET_K, k: RET_EPERM },
    { label: "allow" },
    { code: RET_K, k: RET_ALLOW },
    { label: "kill" },
    { code: RET_K, k: RET_KILL_PROCESS },
  ]);
}
