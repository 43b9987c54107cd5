import type { Pool } from 'pg';
import { createEvent, serviceOf, type EventName, type EventPayload } from '@acs/events';

/**
 * Writes events of the catalog to their service's outbox the way that service does
 * (`createEvent`, NOTIFY at commit), in one transaction; the relay publishes them with the
 * stack's subject prefix. Returns the event ids and the commit time.
 */
export async function writeOutboxEvents<N extends EventName>(
  pool: Pool,
  name: N,
  data: EventPayload<N>[],
): Promise<{ ids: string[]; committedAt: number }> {
  const schema = serviceOf(name);
  const rows = data.map((d) => createEvent(name, d));
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO "${schema}"."outbox" (id, subject, payload)
       SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`,
      [rows.map((r) => r.id), rows.map((r) => r.subject), rows.map((r) => JSON.stringify(r.payload))],
    );
    await client.query(`SELECT pg_notify('${schema}_outbox', '')`);
    await client.query('COMMIT');
    return { ids: rows.map((r) => r.id), committedAt: Date.now() };
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
