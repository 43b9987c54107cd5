import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * Writes events to a service's outbox the way that service does (subject
 * `acs.<schema>.<type>`, NOTIFY at commit), in one transaction; the relay publishes them
 * with the stack's subject prefix. Returns the event ids and the commit time.
 */
export async function writeOutboxEvents(
  pool: Pool,
  schema: string,
  type: string,
  data: unknown[],
): Promise<{ ids: string[]; committedAt: number }> {
  const client = await pool.connect();
  try {
    const ids = data.map(() => randomUUID());
    const now = new Date().toISOString();
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO "${schema}"."outbox" (id, subject, payload)
       SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`,
      [
        ids,
        ids.map(() => `acs.${schema}.${type}`),
        ids.map((id, i) => JSON.stringify({ id, type, occurred_at: now, data: data[i] })),
      ],
    );
    await client.query(`SELECT pg_notify('${schema}_outbox', '')`);
    await client.query('COMMIT');
    return { ids, committedAt: Date.now() };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** The p-th percentile (0-100) of some numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
