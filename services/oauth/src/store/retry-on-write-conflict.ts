/** PostgreSQL's serialization failure and deadlock, and Prisma's name for both. */
const CONFLICT_CODES = new Set(['40001', '40P01', 'P2034']);

/**
 * Runs a transaction again when PostgreSQL aborted it for a write conflict or a deadlock,
 * which racing token requests can cause (two refreshes of one token revoking the same
 * grant). The retry sees the committed winner and takes its own path (reuse detected),
 * so the client gets its OAuth2 answer, never an internal error.
 */
export async function retryOnWriteConflict<T>(run: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isWriteConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

function isWriteConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, meta } = error as Error & { code?: unknown; meta?: { code?: unknown } };
  if (typeof code === 'string' && CONFLICT_CODES.has(code)) return true;
  if (typeof meta?.code === 'string' && CONFLICT_CODES.has(meta.code)) return true;
  return /deadlock detected|could not serialize access/i.test(error.message);
}
