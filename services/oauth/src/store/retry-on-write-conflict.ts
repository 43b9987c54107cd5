import { retry, type BackoffPolicy } from '@acs/events';

/** PostgreSQL's serialization failure and deadlock, and Prisma's name for both. */
const CONFLICT_CODES = new Set(['40001', '40P01', 'P2034']);

/** How many times a conflicting transaction runs at most. */
const MAX_ATTEMPTS = 4;

/**
 * A few milliseconds between attempts (5-10, 10-20, 20-40): the winner has committed by
 * then, and the jitter keeps the racers from colliding again.
 */
const CONFLICT_BACKOFF: BackoffPolicy = { initialMs: 5, maxMs: 20, factor: 2, jitter: 1 };

/**
 * Runs a transaction again when PostgreSQL aborted it for a write conflict or a deadlock,
 * which racing token requests can cause (two refreshes of one token revoking the same
 * grant). The retry sees the committed winner and takes its own path (reuse detected),
 * so the client gets its OAuth2 answer, never an internal error. Any other failure, and
 * the conflict of the last attempt, is thrown.
 */
export async function retryOnWriteConflict<T>(run: () => Promise<T>, attempts = MAX_ATTEMPTS): Promise<T> {
  let attempted = 0;
  return retry(
    (attempt) => {
      attempted = attempt.number;
      return run();
    },
    {
      policy: CONFLICT_BACKOFF,
      shouldRetry: (error) => attempted < attempts && isWriteConflict(error),
    },
  );
}

function isWriteConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, meta } = error as Error & { code?: unknown; meta?: { code?: unknown } };
  if (typeof code === 'string' && CONFLICT_CODES.has(code)) return true;
  if (typeof meta?.code === 'string' && CONFLICT_CODES.has(meta.code)) return true;
  return /deadlock detected|could not serialize access/i.test(error.message);
}
