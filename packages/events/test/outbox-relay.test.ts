import { randomBytes } from 'node:crypto';
import { nanos, type NatsConnection } from 'nats';
import type { Pool } from 'pg';
import type { TestDatabase } from '@acs/testing';
import { ensureEventStream, OutboxRelay, outboxNotifySql, publishedSubject, startOutboxRelay } from '../src';
import { createOutboxRow } from '../src/event-envelope';
import { openOutboxTestbed, readStream, waitUntilPublished, type OutboxTestbed } from './outbox-fixture';

const SCHEMA = 'relaytest';
const service = `relay-test-${randomBytes(3).toString('hex')}`;
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

async function insertEvents(count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => createOutboxRow(service, 'thing.happened', { n: i }));
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const row of rows) {
      await client.query(`INSERT INTO ${SCHEMA}.outbox (id, subject, payload) VALUES ($1, $2, $3)`, [
        row.id,
        row.subject,
        row.payload,
      ]);
    }
    await client.query(outboxNotifySql(SCHEMA));
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return rows.map((r) => r.id);
}

describe('outbox relay', () => {
  it('publishes committed rows within a second, in order, with the row id as Nats-Msg-Id', async () => {
    const relay = startOutboxRelay({
      pool,
      schema: SCHEMA,
      natsUrl: db.natsUrl,
      logger: quiet,
      name: 'test',
    });
    try {
      // Let the relay connect, then measure the NOTIFY-driven path.
      await new Promise((r) => setTimeout(r, 300));
      const ids = await insertEvents(25);
      expect(await waitUntilPublished(pool, SCHEMA, ids)).toBeLessThan(1000);
      const messages = await readStream(nats, service, 25);
      expect(messages.map((m) => m.headers?.get('Nats-Msg-Id'))).toEqual(ids);
      expect(messages.map((m) => (m.json() as { id: string }).id)).toEqual(ids);
      expect(messages[0]!.subject).toBe(`acs.${service}.thing.happened`);
    } finally {
      await relay.stop();
    }
  });

  it('lets its LISTEN connection go once, when it fails after the relay stopped or fails twice', async () => {
    const relay = startOutboxRelay({
      pool,
      schema: SCHEMA,
      natsUrl: db.natsUrl,
      logger: quiet,
      name: 'test',
    });
    const ids = await insertEvents(1);
    await waitUntilPublished(pool, SCHEMA, ids);
    const listening = async () =>
      (
        await pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
        )
      ).rows.map((row) => row.pid);
    const [pid] = await listening();
    expect(pid).toBeDefined();
    // Lost while running: listened again for the next rows.
    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    const more = await insertEvents(1);
    await waitUntilPublished(pool, SCHEMA, more);
    await relay.stop();
    // Stopped: the connection is closed, not back in the pool LISTENing (a pool client that
    // then failed was released a second time, which pg-pool throws on).
    expect(await listening()).toEqual([]);
  });

  it('republishing a row after a crash between publish and mark is dropped by the stream', async () => {
    const [id] = await insertEvents(1);
    // The crash: the row reached the stream, but was never marked published.
    const { rows } = await pool.query(`SELECT subject, payload::text FROM ${SCHEMA}.outbox WHERE id = $1`, [
      id,
    ]);
    const first = await nats
      .jetstream()
      .publish(rows[0].subject, Buffer.from(rows[0].payload), { msgID: id });
    expect(first.duplicate).toBe(false);

    const relay = new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet });
    expect(await relay.relayBatch()).toBe(1);
    const copies = (await readStream(nats, service, 30)).filter((m) => m.headers?.get('Nats-Msg-Id') === id);
    expect(copies).toHaveLength(1);
  });

  it('shares the rows between replicas’ relays: each row published by one of them, once', async () => {
    const ids = await insertEvents(400);
    // Two replicas of a service, each with its relay, on one outbox.
    const relays = [0, 1].map(
      () => new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet, batchSize: 20 }),
    );
    const published = await Promise.all(
      relays.map(async (relay) => {
        let total = 0;
        for (let count = await relay.relayBatch(); count > 0; count = await relay.relayBatch())
          total += count;
        return total;
      }),
    );
    await waitUntilPublished(pool, SCHEMA, ids);
    // FOR UPDATE SKIP LOCKED: a batch one relay holds is skipped by the other, never sent twice.
    expect(published[0]! + published[1]!).toBe(ids.length);
    expect(Math.min(...published)).toBeGreaterThan(0);
    const messages = (await readStream(nats, service, 500)).filter((m) =>
      ids.includes(m.headers?.get('Nats-Msg-Id') ?? ''),
    );
    expect(new Set(messages.map((m) => m.headers?.get('Nats-Msg-Id'))).size).toBe(ids.length);
  });

  it('leaves rows unpublished, and writes unaffected, while NATS cannot be reached', async () => {
    const relay = startOutboxRelay({
      pool,
      schema: SCHEMA,
      natsUrl: 'nats://127.0.0.1:1',
      logger: quiet,
      name: 'test',
    });
    try {
      const ids = await insertEvents(3);
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM ${SCHEMA}.outbox WHERE id = ANY($1) AND published_at IS NULL`,
        [ids],
      );
      expect(rows[0].n).toBe(3);
      expect(relay.isConnected()).toBe(false);
    } finally {
      await relay.stop();
    }
    // A relay that can reach NATS catches up.
    const { rows } = await pool.query(`SELECT id FROM ${SCHEMA}.outbox WHERE published_at IS NULL`);
    const catchUp = new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet });
    expect(await catchUp.relayBatch()).toBe(rows.length);
  });

  it('goes on while batches come full, and after a partial one waits for the next wake-up', async () => {
    await new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet }).relayBatch(); // drain older rows
    // Transactions the relay opens, counted at the pool: one connection each (and one to LISTEN).
    let connections = 0;
    const counted = Object.create(pool) as Pool;
    counted.connect = (() => {
      connections += 1;
      return pool.connect();
    }) as Pool['connect'];
    // No poll within the test: only wake-ups and full batches make the relay look again.
    const relay = new OutboxRelay({
      pool: counted,
      schema: SCHEMA,
      nats,
      logger: quiet,
      batchSize: 10,
      pollIntervalMs: 60_000,
    });
    await relay.start();
    try {
      await new Promise((r) => setTimeout(r, 300));
      const idle = connections;
      // 25 rows, one wake-up: two full batches and a partial one, at once.
      const many = await insertEvents(25);
      expect(await waitUntilPublished(pool, SCHEMA, many)).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 300));
      expect(connections - idle).toBe(3);
      // 3 rows: one partial batch, and no empty one after it.
      const few = await insertEvents(3);
      await waitUntilPublished(pool, SCHEMA, few);
      await new Promise((r) => setTimeout(r, 300));
      expect(connections - idle).toBe(4);
    } finally {
      await relay.stop();
    }
  });

  it('publishes to its own stream and subject prefix when configured', async () => {
    const suffix = randomBytes(3).toString('hex');
    const events = { stream: `RELAY_TEST_${suffix}`, subjectPrefix: `relay${suffix}` };
    await OutboxRelay.ensureStream(nats, events);
    const jsm = await nats.jetstreamManager();
    try {
      await new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet }).relayBatch(); // drain older rows
      const ids = await insertEvents(2);
      const relay = new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet, events });
      expect(await relay.relayBatch()).toBe(2);
      const info = await jsm.streams.info(events.stream);
      expect(info.state.messages).toBe(2);
      const last = await jsm.streams.getMessage(events.stream, {
        last_by_subj: `relay${suffix}.${service}.thing.happened`,
      });
      expect(last.header.get('Nats-Msg-Id')).toBe(ids[1]);
    } finally {
      await jsm.streams.delete(events.stream);
    }
  });
});

/**
 * Outbox rows written straight with the given age (an SQL interval), published that long
 * ago or, with `published: false`, created that long ago and never published.
 */
async function insertAged(count: number, age: string, published = true): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = createOutboxRow(service, 'thing.aged', { n: i });
    await pool.query(
      `INSERT INTO ${SCHEMA}.outbox (id, subject, payload, created_at, published_at)
       VALUES ($1, $2, $3, localtimestamp - $4::interval,
               CASE WHEN $5 THEN localtimestamp - $4::interval END)`,
      [row.id, row.subject, row.payload, age, published],
    );
    ids.push(row.id);
  }
  return ids;
}

/** Which of `ids` are still in the outbox. */
async function remaining(ids: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(`SELECT id FROM ${SCHEMA}.outbox WHERE id = ANY($1)`, [
    ids,
  ]);
  return rows.map((r) => r.id).sort();
}

describe('outbox pruning', () => {
  const hour = 60 * 60 * 1000;

  it('deletes published rows older than the retention, in batches, and keeps recent and unpublished rows', async () => {
    const old = await insertAged(5, '3 hours');
    const recent = await insertAged(2, '30 minutes');
    const unpublished = await insertAged(2, '3 days', false);

    const keepsForever = new OutboxRelay({ pool, schema: SCHEMA, nats, logger: quiet });
    expect(await keepsForever.prune()).toBe(0);
    expect(await remaining(old)).toHaveLength(5);

    const relay = new OutboxRelay({
      pool,
      schema: SCHEMA,
      nats,
      logger: quiet,
      retentionMs: hour,
      pruneBatchSize: 2,
    });
    // 2 + 2 + 1: the loop runs until a batch comes back short.
    expect(await relay.prune()).toBe(5);
    expect(await remaining([...old, ...recent, ...unpublished])).toEqual([...recent, ...unpublished].sort());
    expect(await relay.prune()).toBe(0);
  });

  it('a started relay prunes soon after start, and stops pruning when stopped', async () => {
    const relay = new OutboxRelay({
      pool,
      schema: SCHEMA,
      nats,
      logger: quiet,
      retentionMs: hour,
      pruneIntervalMs: 50,
    });
    const [first] = await insertAged(1, '2 hours');
    await relay.start();
    try {
      const started = Date.now();
      while ((await remaining([first!])).length > 0) {
        if (Date.now() - started > 3000) throw new Error('the old row was not pruned');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await relay.stop();
    }
    const [second] = await insertAged(1, '2 hours');
    await new Promise((r) => setTimeout(r, 300));
    expect(await remaining([second!])).toEqual([second]);
  });
});

describe('ensureEventStream', () => {
  const hour = 60 * 60 * 1000;

  async function withStream(test: (events: { stream: string; subjectPrefix: string }) => Promise<void>) {
    const suffix = randomBytes(3).toString('hex');
    const events = { stream: `RETENTION_TEST_${suffix}`, subjectPrefix: `retention${suffix}` };
    try {
      await test(events);
    } finally {
      const jsm = await nats.jetstreamManager();
      await jsm.streams.delete(events.stream).catch(() => undefined);
    }
  }

  it('creates the stream with max_age, and updates the max_age of an existing stream', () =>
    withStream(async (events) => {
      const jsm = await nats.jetstreamManager();
      await ensureEventStream(nats, { ...events, maxAgeMs: 2 * hour });
      let info = await jsm.streams.info(events.stream);
      expect(info.config.max_age).toBe(nanos(2 * hour));
      expect(info.config.subjects).toEqual([`${events.subjectPrefix}.>`]);
      await nats.jetstream().publish(`${events.subjectPrefix}.test.kept`, Buffer.from('{}'));

      await ensureEventStream(nats, { ...events, maxAgeMs: 3 * hour });
      info = await jsm.streams.info(events.stream);
      expect(info.config.max_age).toBe(nanos(3 * hour));
      // Everything else stays: subjects, the duplicate window, the stored events.
      expect(info.config.subjects).toEqual([`${events.subjectPrefix}.>`]);
      expect(info.config.duplicate_window).toBe(nanos(120_000));
      expect(info.state.messages).toBe(1);

      // Without a retention, an existing limit is left alone.
      await ensureEventStream(nats, events);
      info = await jsm.streams.info(events.stream);
      expect(info.config.max_age).toBe(nanos(3 * hour));
    }));

  it('gives a limit to a stream created without one, also when services start at once', () =>
    withStream(async (events) => {
      const jsm = await nats.jetstreamManager();
      await ensureEventStream(nats, events);
      expect((await jsm.streams.info(events.stream)).config.max_age).toBe(0);

      await Promise.all(
        Array.from({ length: 4 }, () => ensureEventStream(nats, { ...events, maxAgeMs: hour })),
      );
      expect((await jsm.streams.info(events.stream)).config.max_age).toBe(nanos(hour));
    }));

  it('creates the stream on as many servers as asked, and sets a changed count', () =>
    withStream(async (events) => {
      const jsm = await nats.jetstreamManager();
      // The test server is one server, not a cluster: it refuses to create a stream on
      // three, which shows the count reaches it. A three-server cluster takes it.
      await expect(ensureEventStream(nats, { ...events, replicas: 3 })).rejects.toThrow(
        /replicas > 1 not supported/,
      );
      await ensureEventStream(nats, { ...events, replicas: 1 });
      expect((await jsm.streams.info(events.stream)).config.num_replicas).toBe(1);

      await ensureEventStream(nats, { ...events, replicas: 3 });
      expect((await jsm.streams.info(events.stream)).config.num_replicas).toBe(3);
      // Without a count, an existing stream's is left alone.
      await ensureEventStream(nats, events);
      expect((await jsm.streams.info(events.stream)).config.num_replicas).toBe(3);
    }));

  it('creates the stream with its limit when services race to create it', () =>
    withStream(async (events) => {
      await Promise.all(
        Array.from({ length: 4 }, () => ensureEventStream(nats, { ...events, maxAgeMs: hour })),
      );
      const jsm = await nats.jetstreamManager();
      expect((await jsm.streams.info(events.stream)).config.max_age).toBe(nanos(hour));
    }));
});

describe('publishedSubject', () => {
  it('swaps the first token for the prefix', () => {
    expect(publishedSubject('acs.oauth.application.authorized', 'acs1f')).toBe(
      'acs1f.oauth.application.authorized',
    );
    expect(publishedSubject('acs.oauth.x', 'acs')).toBe('acs.oauth.x');
  });
});
