import { ToolError } from "./result.ts";
import type { ToolContext } from "./types.ts";

/** How long an aborted or timed-out handler may take to clean up (kill its process) before the call returns. */
const CLEANUP_GRACE_MS = 1000;

/**
 * Run `fn` with a signal that aborts at `timeoutMs` or when `ctx.signal` aborts; either rejects with a
 * ToolError at once, after giving the handler up to a second to clean up.
 */
export async function withTimeout<T>(
  ctx: ToolContext,
  fn: (ctx: ToolContext) => T,
  opts: { name: string; timeoutMs: number },
): Promise<Awaited<T>> {
  if (ctx.signal.aborted) throw new ToolError("Aborted by the user");
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ToolError(`${opts.name} timed out after ${opts.timeoutMs} ms`);
      reject(err);
      controller.abort(err);
    }, opts.timeoutMs);
    onAbort = () => {
      const err = new ToolError("Aborted by the user");
      reject(err);
      controller.abort(err);
    };
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  const running = Promise.resolve().then(() => fn({ ...ctx, signal: controller.signal }));
  try {
    return await Promise.race([running, stop]);
  } catch (err) {
    if (controller.signal.aborted) await settleWithin(running, CLEANUP_GRACE_MS);
    throw err;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort!);
  }
}

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => {}), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
