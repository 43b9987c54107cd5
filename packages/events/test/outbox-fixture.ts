import { randomBytes } from 'node:crypto';
import { AckPolicy, connect, DeliverPolicy, type JsMsg, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { EVENTS_STREAM, OutboxRelay } from '../src';

/** A test database with an outbox table in `schema`, and NATS with the events stream. */
export interface OutboxTestbed {
  db: TestDatabase;
  pool: Pool;
  nats: NatsConnection;
  close(): Promise<void>;
}

/** Opens an OutboxTestbed: the outbox of `schema` in a database of its own. */
export async function openOutboxTestbed(schema: string): Promise<OutboxTestbed> {
  const db = await createTestDatabase([]);
  const pool = new Pool({ connectionString: db.url });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  await createOutboxTable(pool, schema);
  const nats = await connect({ servers: db.natsUrl });
  await OutboxRelay.ensureStream(nats);
  return {
    db,
    pool,
    nats,
    async close() {
      await nats.drain();
      await pool.end();
      await db.drop();
    },
  };
}

/** Creates `schema` with the outbox table as every service's migration creates it. */
export async function createOutboxTable(pool: Pool, schema: string): Promise<void> {
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(`CREATE TABLE ${schema}.outbox (
    id text PRIMARY KEY, seq bigserial UNIQUE, subject text NOT NULL, payload jsonb NOT NULL,
    created_at timestamp(3) NOT NULL DEFAULT now(), published_at timestamp(3), trace_context jsonb)`);
}

/** Every message of `service`'s subjects in the stream, in stream order, read with an ephemeral consumer. */
export async function readStream(nats: NatsConnection, service: string, expected: number): Promise<JsMsg[]> {
  const jsm = await nats.jetstreamManager();
  const name = `reader_${randomBytes(4).toString('hex')}`;
  await jsm.consumers.add(EVENTS_STREAM, {
    name,
    filter_subject: `acs.${service}.>`,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    inactive_threshold: 30_000_000_000,
  });
  const consumer = await nats.jetstream().consumers.get(EVENTS_STREAM, name);
  const messages: JsMsg[] = [];
  const batch = await consumer.fetch({ max_messages: expected + 10, expires: 1500 });
  for await (const message of batch) messages.push(message);
  return messages;
}

/** Waits until the rows `ids` of `schema`'s outbox are marked published; answers how long that took (ms). */
export async function waitUntilPublished(
  pool: Pool,
  schema: string,
  ids: string[],
  timeoutMs = 5000,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${schema}.outbox WHERE id = ANY($1) AND published_at IS NOT NULL`,
      [ids],
    );
    if (rows[0]!.n === ids.length) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`only ${rows[0]!.n} of ${ids.length} published`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
