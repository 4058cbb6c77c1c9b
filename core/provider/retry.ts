import { type Clock, systemClock } from "../clock/mod.ts";

/** How failed model requests are retried: which failures, how long to wait, how long at most. */
export interface RetryPolicy {
  /** Retries after the first try (default 3). */
  maxRetries: number;
  /** The longest wait navi accepts, in milliseconds; a provider asking for more fails the request. */
  maxWaitMs: number;
}

/** The defaults of `retry` in config.json. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, maxWaitMs: 60_000 };

/** A retry about to happen, for the user interface. */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** How many retries are allowed. */
  of: number;
  /** Milliseconds until the retry. */
  waitMs: number;
  /** The HTTP status that failed, when the provider answered. */
  status?: number;
  /** One line for the user, e.g. `rate limited (429), retrying in 20 s (retry 1 of 3)`. */
  message: string;
}

/** A failed try as retries see it (navi's ApiError fits). */
export interface Failure {
  /** The HTTP status, when the provider answered. */
  status?: number;
  /** The provider's response headers. */
  headers?: Headers;
  /** The connection failed or timed out: no answer. */
  unanswered: boolean;
}

/**
 * Whether a failure is worth retrying: 408, 409, 429 and 5xx answers and connection failures, unless the
 * provider says otherwise with `x-should-retry`.
 */
export function retryable(failure: Failure): boolean {
  const say = failure.headers?.get("x-should-retry");
  if (say === "true") return true;
  if (say === "false") return false;
  const s = failure.status;
  if (s === undefined) return failure.unanswered;
  return s === 408 || s === 409 || s === 429 || s >= 500;
}

/**
 * What follows failed try number `attempt` (from 1): a retry after `waitMs` (the provider's wait, else
 * backoff, never more than the policy's bound), or giving up; `note` says why when the provider asks for a
 * longer wait than the policy allows. `now` (ms since the epoch, default the current time) dates an HTTP-date
 * `retry-after`.
 */
export function planRetry(
  failure: Failure,
  opts: { attempt: number; policy: RetryPolicy; provider: string; now?: number },
): RetryInfo | { giveUp: true; note?: string } {
  const { attempt, policy } = opts;
  if (attempt > policy.maxRetries || !retryable(failure)) return { giveUp: true };
  const asked = requestedWait(failure.headers, opts.now);
  if (asked !== undefined && asked > policy.maxWaitMs) {
    const bound = seconds(policy.maxWaitMs);
    return {
      giveUp: true,
      note: `(the provider asks to retry in ${seconds(asked)}, longer than retry.max_wait_s ${bound})`,
    };
  }
  const waitMs = Math.min(asked ?? backoff(attempt), policy.maxWaitMs);
  const what = failure.status === 429
    ? "rate limited (429)"
    : failure.status
    ? `API error ${failure.status}`
    : `cannot reach ${opts.provider}`;
  return {
    attempt,
    of: policy.maxRetries,
    waitMs,
    status: failure.status,
    message: `${what}, retrying in ${seconds(waitMs)} (retry ${attempt} of ${policy.maxRetries})`,
  };
}

/** The wait the provider asks for in `retry-after-ms` or `retry-after` (seconds or an HTTP date), in ms. */
export function requestedWait(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers?.get("retry-after")?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number.parseFloat(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff without a provider's word: 0.5 s, 1 s, 2 s ... up to 8 s, with up to 25% jitter. */
export function backoff(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 8000) * (1 - Math.random() * 0.25);
}

/** `ms` as the user reads it: whole seconds from one second on. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.ceil(ms / 1000)} s`;
}

/** Wait `ms` on `clock` (default the system clock), or throw the signal's abort as soon as it fires. */
export function sleep(ms: number, signal: AbortSignal, clock: Clock = systemClock): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The error an abort of `signal` is reported with (an `AbortError`). */
export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  return reason instanceof Error && reason.name === "AbortError"
    ? reason
    : new DOMException("The request was aborted", "AbortError");
}
