import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on one connection: COMMIT when it returns, ROLLBACK when it
 * throws. `begin` may name the isolation level (e.g. a read-only snapshot).
 */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
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
