import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { IDENTIFY_WINDOW_MS, IdentifyStore } from '../../src/store/identify-store';

const APP = '1300000000000000001';
const OTHER_APP = '1300000000000000002';

let database: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  database = await createTestDatabase(['dispatcher']);
  pool = new Pool({ connectionString: serviceDatabaseUrl(database.url, DB_SCHEMA), max: 3 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
}, 60_000);

afterEach(async () => {
  await pool.query('DELETE FROM dispatcher.gateway_identify');
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/** Inserts an Identify that happened `age` ago (an SQL interval). */
async function identifiedAgo(applicationId: string, age: string): Promise<void> {
  await pool.query(
    `INSERT INTO dispatcher.gateway_identify (application_id, identified_at) VALUES ($1, now() - $2::interval)`,
    [applicationId, age],
  );
}

describe('IdentifyStore', () => {
  it('counts the Identifies of the last 24 hours, per application, whichever store recorded them', async () => {
    // Two stores over one database stand for two dispatcher replicas.
    const [first, second] = [new IdentifyStore(pool), new IdentifyStore(pool)];
    expect(await first.usage(APP)).toEqual({ count: 0, oldestAt: undefined });
    await first.record(APP);
    await second.record(APP);
    await second.record(OTHER_APP);
    expect((await first.usage(APP)).count).toBe(2);
    expect((await second.usage(APP)).count).toBe(2);
    expect((await first.usage(OTHER_APP)).count).toBe(1);
  });

  it('frees a start 24 hours after the oldest Identify of the window, and prunes what left it', async () => {
    const store = new IdentifyStore(pool);
    await identifiedAgo(APP, '25 hours');
    await identifiedAgo(APP, '23 hours');
    await identifiedAgo(APP, '1 hour');
    const usage = await store.usage(APP);
    expect(usage.count).toBe(2);
    const freedIn = usage.oldestAt!.getTime() + IDENTIFY_WINDOW_MS - Date.now();
    expect(freedIn).toBeGreaterThan(0.9 * 60 * 60 * 1000);
    expect(freedIn).toBeLessThanOrEqual(60 * 60 * 1000 + 1000);

    expect(await store.prune()).toBe(1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM dispatcher.gateway_identify');
    expect(rows[0].n).toBe(2);
    expect((await store.usage(APP)).count).toBe(2);
  });
});
