/** How long a webhook event is retried, measured from its first attempt (Discord: 10 minutes). */
export const RETRY_BUDGET_MS = 10 * 60_000;
/** First retry delay; each later one doubles, up to MAX_RETRY_DELAY_MS. */
export const FIRST_RETRY_DELAY_MS = 1_000;
/** Longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 120_000;

/**
 * The wait before attempt `attempt + 1` after `attempt` failures: exponential with "equal
 * jitter" (half fixed, half random), so retries of many deliveries spread out but none
 * comes back immediately. `timeScale` shrinks every duration (tests run at 0.01).
 */
export function retryDelayMs(attempt: number, random: () => number, timeScale = 1): number {
  const exponential = Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
  return (exponential / 2 + (random() * exponential) / 2) * timeScale;
}

/**
 * When to try again, or undefined when the next attempt would fall outside the retry
 * budget (the delivery is then failed).
 */
export function nextAttemptAt(
  attempt: number,
  firstAttemptAt: number,
  now: number,
  random: () => number,
  timeScale = 1,
): number | undefined {
  const at = now + retryDelayMs(attempt, random, timeScale);
  return at - firstAttemptAt > RETRY_BUDGET_MS * timeScale ? undefined : at;
}
