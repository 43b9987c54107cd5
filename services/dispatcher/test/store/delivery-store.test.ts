import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { DeliveryStore } from '../../src/store/delivery-store';

const HOUR = 60 * 60 * 1000;
const APPLICATION_ID = '1300000000000000001';

let database: TestDatabase;
let pool: Pool;
let store: DeliveryStore;

beforeAll(async () => {
  database = await createTestDatabase(['dispatcher']);
  pool = new Pool({ connectionString: serviceDatabaseUrl(database.url, DB_SCHEMA), max: 3 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  store = new DeliveryStore(pool);
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/**
 * Records one handled event with one webhook delivery through the store, then backdates
 * them by `age` (an SQL interval) and sets the delivery's status. A finished delivery
 * finished `age` ago; its event was handled (and the delivery created) `handledAge` ago.
 */
async function recordAged(
  age: string,
  status: 'pending' | 'delivered' | 'failed' | 'skipped',
  handledAge = age,
): Promise<string> {
  const id = randomUUID();
  await store.record(
    [{ id, subject: 'acs.command-registry.command.created' }],
    [
      {
        eventId: id,
        applicationId: APPLICATION_ID,
        eventType: 'APPLICATION_COMMAND_CREATE',
        url: 'https://x.test',
        body: '{}',
      },
    ],
  );
  await pool.query(
    `UPDATE dispatcher.processed_event SET processed_at = now() - $2::interval WHERE id = $1`,
    [id, handledAge],
  );
  await pool.query(
    `UPDATE dispatcher.webhook_delivery
        SET status = $3, created_at = now() - $4::interval,
            finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() - $2::interval END
      WHERE event_id = $1`,
    [id, age, status, handledAge],
  );
  return id;
}

async function processedEvents(ids: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    'SELECT id FROM dispatcher.processed_event WHERE id = ANY($1) ORDER BY id',
    [ids],
  );
  return rows.map((r) => r.id);
}

async function deliveries(ids: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ event_id: string }>(
    'SELECT event_id FROM dispatcher.webhook_delivery WHERE event_id = ANY($1) ORDER BY event_id',
    [ids],
  );
  return rows.map((r) => r.event_id);
}

describe('DeliveryStore.prune', () => {
  it('removes old handled events and old finished deliveries, in batches; keeps pending and recent ones', async () => {
    const oldFinished = [
      await recordAged('3 hours', 'delivered'),
      await recordAged('3 hours', 'failed'),
      await recordAged('3 hours', 'skipped'),
    ];
    const recentFinished = await recordAged('10 minutes', 'delivered');
    // Retried long after its event was handled: it goes by when it finished.
    const lateFinished = await recordAged('10 minutes', 'failed', '3 hours');
    const oldPending = await recordAged('3 days', 'pending');
    const all = [...oldFinished, recentFinished, lateFinished, oldPending];

    // Five handled events and three deliveries, by batches of 2: the loop must go on.
    expect(await store.prune(HOUR, { batchSize: 2 })).toBe(8);

    const sorted = (ids: string[]) => [...ids].sort();
    // Events handled long ago go, even those whose delivery stays.
    expect(await processedEvents(all)).toEqual([recentFinished]);
    expect(await deliveries(all)).toEqual(sorted([recentFinished, lateFinished, oldPending]));
    expect(await store.prune(HOUR)).toBe(0);
  });

  it('keeps everything younger than the retention', async () => {
    const ids = [await recordAged('3 hours', 'delivered'), await recordAged('3 hours', 'pending')];
    expect(await store.prune(4 * HOUR)).toBe(0);
    expect(await processedEvents(ids)).toEqual([...ids].sort());
    expect(await deliveries(ids)).toEqual([...ids].sort());
    // With a shorter retention they go, except the pending delivery.
    expect(await store.prune(HOUR)).toBe(3);
    expect(await deliveries(ids)).toEqual([ids[1]]);
  });

  it('stops at once when its signal has aborted', async () => {
    const id = await recordAged('3 hours', 'delivered');
    const stopping = new AbortController();
    stopping.abort();
    expect(await store.prune(HOUR, { signal: stopping.signal })).toBe(0);
    expect(await processedEvents([id])).toEqual([id]);
    expect(await deliveries([id])).toEqual([id]);
  });
});
