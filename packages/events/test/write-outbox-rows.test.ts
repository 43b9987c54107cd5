import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import type { TestDatabase } from '@acs/testing';
import { insertOutboxSql, startOutboxRelay, writeOutboxRows, writePrismaOutboxEvent } from '../src';
import { createOutboxRow } from '../src/event-envelope';
import { openOutboxTestbed, readStream, waitUntilPublished, type OutboxTestbed } from './outbox-fixture';

const SCHEMA = 'writertest';
const service = `writer-test-${randomBytes(3).toString('hex')}`;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let bed: OutboxTestbed;
let db: TestDatabase;
let pool: Pool;
let nats: NatsConnection;

beforeAll(async () => {
  bed = await openOutboxTestbed(SCHEMA);
  ({ db, pool, nats } = bed);
});

afterAll(() => bed?.close());

function batch(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) =>
    createOutboxRow(service, i % 2 === 0 ? 'thing.happened' : 'other.happened', { n: from + i }, new Date(), {
      traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    }),
  );
}

describe('writeOutboxRows', () => {
  it('relays a batch of events to NATS in the order written, woken by its NOTIFY', async () => {
    const relay = startOutboxRelay({
      pool,
      schema: SCHEMA,
      natsUrl: db.natsUrl,
      logger: quiet,
      name: 'test',
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      // Two changes, one after the other, each with a batch whose ids (random UUIDs) are in no sorted order.
      const first = batch(60);
      const second = batch(40, 60);
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await writeOutboxRows(client, SCHEMA, first);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      await writeOutboxRows(pool, SCHEMA, second);
      const ids = [...first, ...second].map((r) => r.id);
      await waitUntilPublished(pool, SCHEMA, ids, 2000);

      const { rows } = await pool.query<{ id: string; trace_context: unknown }>(
        `SELECT id, trace_context FROM ${SCHEMA}.outbox WHERE id = ANY($1) ORDER BY seq`,
        [ids],
      );
      expect(rows.map((r) => r.id)).toEqual(ids);
      expect(rows[0]!.trace_context).toEqual(first[0]!.traceContext);
      const messages = await readStream(nats, service, ids.length);
      expect(messages.map((m) => m.headers?.get('Nats-Msg-Id'))).toEqual(ids);
      expect(messages.map((m) => (m.json() as { data: { n: number } }).data.n)).toEqual(ids.map((_, i) => i));
      expect(messages[1]!.subject).toBe(`acs.${service}.other.happened`);
    } finally {
      await relay.stop();
    }
  });

  it('writes nothing for no rows', async () => {
    const queries: string[] = [];
    await writeOutboxRows({ query: async (text: string) => queries.push(text) }, SCHEMA, []);
    expect(queries).toEqual([]);
  });
});

describe('insertOutboxSql', () => {
  it('composes into a statement: the rows go in once per row of the guard, in order', async () => {
    const run = async (guardRows: number) => {
      const rows = batch(5);
      const values: unknown[] = [];
      const params = { values, add: (value: unknown) => `$${values.push(value)}` };
      const guardCount = params.add(guardRows);
      const insert = insertOutboxSql(params, SCHEMA, rows, 'change');
      await pool.query(
        `WITH change AS (SELECT g FROM generate_series(1, ${guardCount}::int) AS g),
              events AS (${insert} RETURNING id)
         SELECT count(*) FROM events`,
        values,
      );
      const stored = await pool.query<{ id: string }>(
        `SELECT id FROM ${SCHEMA}.outbox WHERE id = ANY($1) ORDER BY seq`,
        [rows.map((r) => r.id)],
      );
      return { rows, stored: stored.rows.map((r) => r.id) };
    };
    const skipped = await run(0);
    expect(skipped.stored).toEqual([]);
    const written = await run(1);
    expect(written.stored).toEqual(written.rows.map((r) => r.id));
    // Leave nothing for the other test's relay that it did not write.
    await pool.query(`UPDATE ${SCHEMA}.outbox SET published_at = now() WHERE published_at IS NULL`);
  });
});

describe('writePrismaOutboxEvent', () => {
  it("writes through writeOutboxRows on the transaction's connection: nothing if it rolls back", async () => {
    const client = await pool.connect();
    // A Prisma transaction's raw statement, run on the transaction's connection.
    const tx = { $executeRawUnsafe: (text: string, ...values: unknown[]) => client.query(text, values) };
    const user = (id: string) => ({ user_id: id });
    try {
      await client.query('BEGIN');
      await writePrismaOutboxEvent(tx, SCHEMA, 'oauth.user.deleted', user('1'));
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await client.query(`LISTEN ${SCHEMA}_outbox`);
      const woken = new Promise((resolve) => client.once('notification', resolve));
      await writePrismaOutboxEvent(tx, SCHEMA, 'oauth.user.deleted', user('2'));
      await writePrismaOutboxEvent(tx, SCHEMA, 'oauth.user.deleted', user('3'));
      await client.query('COMMIT');
      await woken;
      await client.query(`UNLISTEN ${SCHEMA}_outbox`);
    } finally {
      client.release();
    }
    const { rows } = await pool.query<{ subject: string; payload: { data: unknown } }>(
      `SELECT subject, payload FROM ${SCHEMA}.outbox WHERE subject = 'acs.oauth.user.deleted' ORDER BY seq`,
    );
    expect(rows.map((r) => r.payload.data)).toEqual([user('2'), user('3')]);
  });

  it('refuses an event the catalog does not describe before writing anything', async () => {
    const queries: unknown[] = [];
    const tx = { $executeRawUnsafe: async (text: string) => queries.push(text) };
    await expect(
      writePrismaOutboxEvent(tx, SCHEMA, 'oauth.user.deleted', { user: 1 } as never),
    ).rejects.toThrow();
    expect(queries).toEqual([]);
  });
});
