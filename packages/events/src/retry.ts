/** How long to wait between attempts: exponential, capped, with jitter. */
export interface BackoffPolicy {
  /** The wait after the first failure. */
  initialMs: number;
  /** The longest wait. */
  maxMs: number;
  /** Each wait is this many times the previous one. */
  factor: number;
  /** Up to this fraction is added at random, so that replicas do not retry in step. */
  jitter: number;
}

/** The backoff of every retry loop of ACS: 250 ms, doubling up to 5 s, plus up to 20 %. */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 5000, factor: 2, jitter: 0.2 };

/** The wait after the `failures`-th failure in a row (1 for the first). */
export function backoffDelay(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const base = Math.min(policy.initialMs * policy.factor ** Math.max(0, failures - 1), policy.maxMs);
  return Math.round(base * (1 + Math.random() * policy.jitter));
}

/** One attempt of `retry`'s operation. */
export interface RetryAttempt {
  /** 1 for the first attempt, counting since the last `progressed()`. */
  number: number;
  /**
   * Says that the attempt got somewhere (connected, consumed for a while): if it fails
   * later, the next wait starts from the shortest delay again.
   */
  progressed(): void;
}

/** Options of `retry`. */
export interface RetryOptions {
  /** Aborting ends the wait at once and makes `retry` reject with the signal's reason. */
  signal?: AbortSignal;
  policy?: BackoffPolicy;
  /** Called before each wait, to log the failure. */
  onRetry?: (error: unknown, retry: { attempt: number; delayMs: number }) => void;
  /** Failures for which this answers false are not retried (thrown at once). */
  shouldRetry?: (error: unknown) => boolean;
}

/**
 * Runs `operation` until it succeeds, waiting by the backoff policy after each failure;
 * the one retry helper of ACS. It retries forever: stop it with `signal`.
 */
export async function retry<T>(
  operation: (attempt: RetryAttempt) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const { signal } = options;
  let failures = 0;
  const attempt: RetryAttempt = {
    number: 1,
    progressed: () => {
      failures = 0;
    },
  };
  for (;;) {
    signal?.throwIfAborted();
    attempt.number = failures + 1;
    try {
      return await operation(attempt);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (options.shouldRetry?.(error) === false) throw error;
      failures += 1;
      const delayMs = backoffDelay(failures, options.policy);
      options.onRetry?.(error, { attempt: failures, delayMs });
      await sleep(delayMs, signal);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts (resolving, never rejecting). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
