import type { Pool, PoolClient } from 'pg';

/** PostgreSQL's isolation levels (READ UNCOMMITTED behaves as READ COMMITTED, so it is left out). */
export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

/** How a transaction begins: its isolation level (the server's default when absent) and access mode. */
export interface TransactionOptions {
  isolation?: IsolationLevel;
  /** A read-only transaction: any write in it fails (25006). */
  readOnly?: boolean;
}

/** The BEGIN statement of `options`, e.g. `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`. */
export function beginStatement(options: TransactionOptions = {}): string {
  const parts = ['BEGIN'];
  if (options.isolation) parts.push(`ISOLATION LEVEL ${options.isolation.toUpperCase()}`);
  if (options.readOnly) parts.push('READ ONLY');
  return parts.join(' ');
}

/**
 * Runs `work` in one transaction on one connection of `pool`: COMMIT when it returns,
 * ROLLBACK when it throws (the error is rethrown as is). The one transaction helper of
 * every plain-SQL store.
 */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(beginStatement(options));
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
