import type { OutboxRow } from './event-envelope';
import { outboxNotifySql } from './outbox-sql';

/** The numbered parameters of a statement being put together (service-kit's StatementParameters). */
export interface SqlParameters {
  readonly values: unknown[];
  /** Adds `value`; answers its placeholder (`$n`). */
  add(value: unknown): string;
}

/** A connection or pool that runs one statement (pg's PoolClient, Pool, Client). */
export interface SqlRunner {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * The INSERT of `rows` into the outbox of `schema`, in the order given: the relay publishes
 * by `seq`, and `ORDER BY` the list's ordinality makes `seq` follow the list, so the events
 * of one change reach NATS in the order the change wrote them. With `guard` (a FROM item of
 * the enclosing statement, e.g. the CTE of the change) the rows go in once for each row of
 * it: none when the change did not happen. Composable as a data-modifying CTE.
 */
export function insertOutboxSql(
  params: SqlParameters,
  schema: string,
  rows: readonly OutboxRow[],
  guard?: string,
): string {
  const ids = params.add(rows.map((r) => r.id));
  const subjects = params.add(rows.map((r) => r.subject));
  const payloads = params.add(rows.map((r) => JSON.stringify(r.payload)));
  const traces = params.add(rows.map((r) => (r.traceContext ? JSON.stringify(r.traceContext) : null)));
  return `INSERT INTO "${schema}".outbox (id, subject, payload, trace_context)
    SELECT e.id, e.subject, e.payload, e.trace_context
      FROM unnest(${ids}::text[], ${subjects}::text[], ${payloads}::jsonb[], ${traces}::jsonb[])
           WITH ORDINALITY AS e(id, subject, payload, trace_context, n)${guard ? `\n     CROSS JOIN ${guard}` : ''}
     ORDER BY e.n`;
}

/**
 * Writes `rows` to the outbox of `schema` in one statement, in order, with the relay's
 * wake-up (delivered at commit). Run it on the connection of the transaction that makes
 * the change; nothing is written for no rows.
 */
export async function writeOutboxRows(
  db: SqlRunner,
  schema: string,
  rows: readonly OutboxRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const values: unknown[] = [];
  const params = { values, add: (value: unknown) => `$${values.push(value)}` };
  const insert = insertOutboxSql(params, schema, rows);
  await db.query(`WITH events AS (${insert}) ${outboxNotifySql(schema)}`, values);
}
