import type { PoolClient } from 'pg';
import { createEvent, insertOutboxSql, outboxChannel, type OutboxRow } from '@acs/events';
import { StatementParameters } from '@acs/service-kit';
import { DB_SCHEMA } from '../config';
import type { InteractionEvent } from '../domain/interaction-events';

/**
 * The channel that announces an interaction's outcome (acknowledged or failed), its id as
 * payload: `wait` LISTENs on it instead of polling.
 */
export const OUTCOME_CHANNEL = 'interactions_outcome';

/** The channel the outbox relay LISTENs on: a wake-up, sent with every outbox insert. */
const OUTBOX_CHANNEL = outboxChannel(DB_SCHEMA);

/** A guard of one row: what is guarded by it happens once. */
export const ONCE = '(VALUES (1)) AS once';

/** The outbox rows of planned events, in order, each checked against the catalog (throws before anything is written). */
export function interactionEventRows(events: readonly InteractionEvent[]): OutboxRow[] {
  return events.map((event) => createEvent(event.name, event.data));
}

/**
 * The INSERT of `rows` into this service's outbox (`@acs/events`' insertOutboxSql), to run
 * as a data-modifying CTE of the statement that makes the change: in the order given, once
 * for each row of `guard` (the CTE of the change: one row when it happened, none when not).
 */
export function insertEventsSql(params: StatementParameters, rows: OutboxRow[], guard: string): string {
  return insertOutboxSql(params, DB_SCHEMA, rows, guard);
}

/**
 * The SELECT that ends a change's statement: the relay's wake-up and the outcome
 * announcements of `outcomeIds`, once for each row of `guard`, so that the statement
 * answers one row or more exactly when the change happened. PostgreSQL delivers them at
 * commit: a change that did not happen, or rolled back, announces nothing.
 */
export function notifySql(params: StatementParameters, outcomeIds: string[], guard: string): string {
  const channels = params.add([OUTBOX_CHANNEL, ...outcomeIds.map(() => OUTCOME_CHANNEL)]);
  const payloads = params.add(['', ...outcomeIds]);
  return `SELECT pg_notify(n.channel, n.payload)
      FROM ${guard} CROSS JOIN unnest(${channels}::text[], ${payloads}::text[]) AS n(channel, payload)`;
}

/**
 * Writes events into the outbox of the running transaction in one statement, with the
 * relay's wake-up and the outcome announcements of `outcomeIds`.
 */
export async function writeEvents(
  db: PoolClient,
  rows: OutboxRow[],
  outcomeIds: string[] = [],
): Promise<void> {
  if (rows.length === 0 && outcomeIds.length === 0) return;
  const params = new StatementParameters();
  const insert = insertEventsSql(params, rows, ONCE);
  await db.query(`WITH events AS (${insert}) ${notifySql(params, outcomeIds, ONCE)}`, params.values);
}
