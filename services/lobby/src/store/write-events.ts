import type { PoolClient } from 'pg';
import { outboxNotifySql, type OutboxRow } from '@acs/events';
import { DB_SCHEMA } from '../config';

/** Inserts events into the outbox of the running transaction, with the relay's wake-up, in one statement. */
export async function writeEvents(db: PoolClient, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `WITH events AS (
       INSERT INTO outbox (id, subject, payload, trace_context)
       SELECT e.id, e.subject, e.payload, e.trace_context
         FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::jsonb[]) WITH ORDINALITY AS e(id, subject, payload, trace_context, n)
        ORDER BY e.n)
     ${outboxNotifySql(DB_SCHEMA)}`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.subject),
      rows.map((r) => JSON.stringify(r.payload)),
      rows.map((r) => (r.traceContext ? JSON.stringify(r.traceContext) : null)),
    ],
  );
}
