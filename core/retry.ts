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

/**
 * Whether a failure is worth retrying: 408, 409, 429 and 5xx answers and connection failures (no status),
 * unless the provider says otherwise with `x-should-retry`.
 */
export function retryable(failure: { status?: number; headers?: Headers }): boolean {
  const say = failure.headers?.get("x-should-retry");
  if (say === "true") return true;
  if (say === "false") return false;
  const s = failure.status;
  return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
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

/** Wait `ms`, or throw the signal's abort as soon as it fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
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
