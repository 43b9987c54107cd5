import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import type { GatewayPrincipal } from '../../src/domain/gateway-principal';
import { sessionStartLimit, type IdentifyLimits } from '../../src/domain/identify-limits';
import { IdentifyStore } from '../../src/store/identify-store';

const APP = '1300000000000000001';
const OTHER_APP = '1300000000000000002';
const USER = '1300000000000000003';
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** Discord's limits, but with a window of 10 s so that a slow machine stays inside it. */
const LIMITS: IdentifyLimits = {
  total: 1000,
  windowMs: DAY_MS,
  maxConcurrency: 1,
  concurrencyWindowMs: 10_000,
};

let database: TestDatabase;
/** Two pools over one database stand for two dispatcher replicas. */
let pools: [Pool, Pool];

beforeAll(async () => {
  database = await createTestDatabase(['dispatcher']);
  const url = serviceDatabaseUrl(database.url, DB_SCHEMA);
  pools = [new Pool({ connectionString: url, max: 5 }), new Pool({ connectionString: url, max: 5 })];
  // Dropping the database at the end terminates connections that are still closing.
  for (const pool of pools) pool.on('error', () => undefined);
}, 60_000);

afterEach(async () => {
  await pools[0].query('DELETE FROM dispatcher.gateway_identify');
});

afterAll(async () => {
  for (const pool of pools ?? []) await pool.end();
  await database?.drop();
});

/** Stores on both "replicas" with the same limits. */
function replicas(limits: IdentifyLimits = LIMITS): [IdentifyStore, IdentifyStore] {
  return [new IdentifyStore(pools[0], limits), new IdentifyStore(pools[1], limits)];
}

/** Records an Identify that happened `age` ago (an SQL interval), in bucket `key`. */
async function identifiedAgo(applicationId: string, age: string, key = 0): Promise<void> {
  await pools[0].query(
    `INSERT INTO dispatcher.gateway_identify (application_id, rate_limit_key, identified_at)
     VALUES ($1, $2, now() - $3::interval)`,
    [applicationId, key, age],
  );
}

const bot = (applicationId: string): GatewayPrincipal => ({ kind: 'bot', applicationId });
const user = (userId: string): GatewayPrincipal => ({ kind: 'user', userId });

async function rowCount(): Promise<number> {
  const { rows } = await pools[0].query('SELECT count(*)::int AS n FROM dispatcher.gateway_identify');
  return rows[0].n as number;
}

describe('IdentifyStore.claim: max_concurrency', () => {
  it('grants one of many simultaneous Identifies of a bucket, whichever replica takes them', async () => {
    const [first, second] = replicas();
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? first : second).claim(bot(APP), 0)),
    );
    expect(decisions.filter((d) => d.granted)).toHaveLength(1);
    for (const refused of decisions.filter((d) => !d.granted)) {
      expect(refused).toEqual({ granted: false, limit: 'concurrency', retryAfterMs: expect.any(Number) });
      if (!refused.granted) {
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(LIMITS.concurrencyWindowMs);
      }
    }
    // Refused Identifies are not session starts.
    expect(await rowCount()).toBe(1);
    expect((await first.usage(bot(APP))).count).toBe(1);
  });

  it('keeps each bucket (shard_id % max_concurrency) and each application apart', async () => {
    const [store] = replicas({ ...LIMITS, maxConcurrency: 2 });
    expect(await store.claim(bot(APP), 0)).toEqual({ granted: true });
    expect(await store.claim(bot(APP), 1)).toEqual({ granted: true });
    expect(await store.claim(bot(OTHER_APP), 0)).toEqual({ granted: true });
    expect((await store.claim(bot(APP), 0)).granted).toBe(false);
    expect((await store.claim(bot(APP), 1)).granted).toBe(false);
  });

  it('opens the bucket again once the window has passed', async () => {
    const [store] = replicas();
    await identifiedAgo(APP, '8 seconds');
    // 8 s into a 10-s window: refused.
    expect(await store.claim(bot(APP), 0)).toEqual({
      granted: false,
      limit: 'concurrency',
      retryAfterMs: expect.any(Number),
    });
    await pools[0].query('DELETE FROM dispatcher.gateway_identify');
    // 9.6 s: the last 0.4 s are the tolerance for clocks and token lookups.
    await identifiedAgo(APP, '9.6 seconds');
    expect(await store.claim(bot(APP), 0)).toEqual({ granted: true });
  });
});

describe('IdentifyStore.claim: the total per window', () => {
  it('refuses the start after the last, until the oldest leaves the window; /gateway/bot agrees', async () => {
    const limits = { ...LIMITS, total: 3 };
    const [store, other] = replicas(limits);
    await identifiedAgo(APP, '25 hours'); // outside the window: not counted
    await identifiedAgo(APP, '23 hours');
    await identifiedAgo(APP, '1 hour');
    expect(sessionStartLimit(limits, await store.usage(bot(APP)))).toMatchObject({ total: 3, remaining: 1 });

    expect(await other.claim(bot(APP), 0)).toEqual({ granted: true });
    const usage = await store.usage(bot(APP));
    const advertised = sessionStartLimit(limits, usage);
    expect(advertised).toMatchObject({ total: 3, remaining: 0, max_concurrency: 1 });
    // The 23-hour-old start is freed in about an hour.
    expect(advertised.reset_after).toBeGreaterThan(HOUR_MS - 60_000);
    expect(advertised.reset_after).toBeLessThanOrEqual(HOUR_MS);

    const refused = await store.claim(bot(APP), 0);
    expect(refused).toEqual({ granted: false, limit: 'total', retryAfterMs: expect.any(Number) });
    if (!refused.granted)
      expect(Math.abs(refused.retryAfterMs - advertised.reset_after)).toBeLessThan(60_000);
    expect((await store.usage(bot(APP))).count).toBe(3);
  });

  it('gives the last start to one of many simultaneous Identifies across replicas and buckets', async () => {
    const limits = { ...LIMITS, total: 5, maxConcurrency: 16 };
    const [first, second] = replicas(limits);
    for (let i = 0; i < 4; i++) await identifiedAgo(APP, '2 hours', i);
    const decisions = await Promise.all(
      Array.from({ length: 16 }, (_, key) => (key % 2 === 0 ? first : second).claim(bot(APP), key)),
    );
    expect(decisions.filter((d) => d.granted)).toHaveLength(1);
    expect(decisions.filter((d) => !d.granted && d.limit === 'total')).toHaveLength(15);
    expect((await first.usage(bot(APP))).count).toBe(5);
  });
});

describe('IdentifyStore.claim: user sessions', () => {
  it("counts a user's chat-client Identifies per user, apart from any bot's", async () => {
    const limits = { ...LIMITS, total: 2 };
    const [first, second] = replicas(limits);
    // The same id as a bot's: the count is still the user's own.
    const decisions = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? first : second).claim(user(APP), 0)),
    );
    expect(decisions.filter((d) => d.granted)).toHaveLength(1);
    expect(await first.claim(bot(APP), 0)).toEqual({ granted: true });
    expect((await first.usage(user(APP))).count).toBe(1);
    expect((await first.usage(bot(APP))).count).toBe(1);

    // The total holds for users too.
    await pools[0].query(
      `INSERT INTO dispatcher.gateway_identify (user_id, identified_at) VALUES ($1, now() - interval '1 hour')`,
      [USER],
    );
    expect(await first.claim(user(USER), 0)).toEqual({ granted: true });
    expect(await second.claim(user(USER), 1)).toEqual({
      granted: false,
      limit: 'total',
      retryAfterMs: expect.any(Number),
    });
    const { rows } = await pools[0].query(
      'SELECT count(*)::int AS n FROM dispatcher.gateway_identify WHERE user_id = $1 AND application_id IS NULL',
      [USER],
    );
    expect(rows[0].n).toBe(2);
  });

  it('refuses a row that names both a bot and a user, or neither', async () => {
    const rows: Array<[string | null, string | null]> = [
      [APP, USER],
      [null, null],
    ];
    for (const values of rows) {
      await expect(
        pools[0].query(
          'INSERT INTO dispatcher.gateway_identify (application_id, user_id) VALUES ($1, $2)',
          values,
        ),
      ).rejects.toThrow(/gateway_identify_one_principal/);
    }
  });
});

describe('IdentifyStore', () => {
  it('reads no usage for an application without Identifies, and advertises the full limit', async () => {
    const [store] = replicas();
    const usage = await store.usage(bot(APP));
    expect(usage).toEqual({ count: 0, sinceOldestMs: null, sinceLastOfKeyMs: null });
    expect(sessionStartLimit(LIMITS, usage)).toEqual({
      total: 1000,
      remaining: 1000,
      reset_after: 0,
      max_concurrency: 1,
    });
  });

  it('prunes only what left every window', async () => {
    const [store] = replicas();
    await identifiedAgo(APP, '25 hours');
    await identifiedAgo(APP, '23 hours');
    await identifiedAgo(APP, '1 second');
    expect(await store.prune()).toBe(1);
    expect(await rowCount()).toBe(2);
    expect((await store.usage(bot(APP))).count).toBe(2);

    // A concurrency window longer than the total's keeps rows that long.
    const [long] = replicas({ ...LIMITS, windowMs: 1000, concurrencyWindowMs: 60_000 });
    expect(await long.prune()).toBe(1);
    expect(await rowCount()).toBe(1);
  });
});
