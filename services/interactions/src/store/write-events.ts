import type { PoolClient } from 'pg';
import { outboxNotifySql, type OutboxRow } from '@acs/events';
import { DB_SCHEMA } from '../config';

/**
 * The channel that announces an interaction's outcome (acknowledged or failed), its id as
 * payload: `wait` LISTENs on it instead of polling.
 */
export const OUTCOME_CHANNEL = 'interactions_outcome';

/**
 * Writes events into the outbox of the running transaction, with a wake-up for the relay
 * (PostgreSQL delivers notifications at commit, so a rolled-back change announces nothing).
 */
export async function writeEvents(db: PoolClient, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO outbox (id, subject, payload, trace_context)
     SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::jsonb[])`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.subject),
      rows.map((r) => JSON.stringify(r.payload)),
      rows.map((r) => (r.traceContext ? JSON.stringify(r.traceContext) : null)),
    ],
  );
  await db.query(outboxNotifySql(DB_SCHEMA));
}

/** Announces, at commit, that the interaction has its outcome. */
export async function notifyOutcome(db: PoolClient, interactionId: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [OUTCOME_CHANNEL, interactionId]);
}
